"""Remote play (#15): the wire format (:mod:`.frames`), join codes and where sockets
live (:mod:`.codes`), the table's authority (:mod:`.authority`, run by :mod:`.serve`),
the client's :class:`~.remote.RemoteTable`, the ``host`` / ``join`` / ``watch``
commands (:mod:`.commands`), the chat line (:mod:`.chat`) and the figures
(``python -m tests.bench.net``)."""
