"""``unoduo serve``: the game over SSH (#16).  :mod:`.server` the asyncssh server,
:mod:`.session` one connection's child process on a pseudo-terminal, :mod:`.identity`
a key's folder and name, :mod:`.limits` what one client may cost."""
