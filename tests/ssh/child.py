"""A stand-in for the game in the transport tests (starts in ~50 ms): it prints what
it was given — its environment, its terminal, its size, on start and on every
SIGWINCH — then echoes each line it reads; ``exit N`` ends it with status N."""

import json
import os
import signal
import sys


def report(tag: str) -> None:
    cols, rows = os.get_terminal_size(0)
    os.write(1, f"{tag} size={cols}x{rows}.\n".encode())  # safe in a signal handler


signal.signal(signal.SIGWINCH, lambda *_: report("resized"))
try:
    os.close(os.open("/dev/tty", os.O_RDWR))  # only with a controlling terminal
    ctty = True
except OSError:
    ctty = False
print("child " + json.dumps({"pid": os.getpid(), "leader": os.getsid(0) == os.getpid(),
                             "ctty": ctty, "argv": sys.argv[1:], "env": dict(os.environ)},
                            sort_keys=True) + " end", flush=True)
report("start")
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "exit":
        sys.exit(int(rest))
    print(f"echo:{line.strip()}.", flush=True)
