"""How tests/data/c2_old_dealer_draw.unoduo was written: by this script, run on the engine of
main at d00585e, before the C2 ruling (#21 item 8) — its tie redraw drew R9 a third time.
Run again today it writes a different file: it is kept as the record of what it did."""

import random
import sys

from engine import Match, Rules
from engine.savefile import Encoder, Header
rules = Rules(preset="classic", seats=8)
h = Header("20261202-000000-c2old", rules, 31337094233,
           tuple((f"Player {i+1}", "human") for i in range(8)),
           "2026-12-02T00:00:00+00:00", "0.1.0")
m = Match.new(rules, seed=h.seed)
rng = random.Random(21)
for _ in range(60):
    m.apply(rng.choice(m.legal_actions()))
enc = Encoder()
data = enc.start(h) + enc.entries(m.actions)
open(sys.argv[1], "wb").write(data)
print(len(data), m.log_length, [str(a)[:30] for a in m.actions[:3]])
