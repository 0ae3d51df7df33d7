"""The game review in the app (#25): the cache beside a save (:mod:`.cache`), running a
review of a loaded match (:mod:`.run`), ``unoduo review`` (:mod:`.command`) and the
replay viewer's review (:mod:`.viewer`).  The analysis is :mod:`engine.review`'s."""
