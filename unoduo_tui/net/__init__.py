"""Remote play: the wire format (:mod:`.frames`) between a table's authority and its
clients."""
