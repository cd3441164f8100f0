"""lang/gcpause.py: a pause hands what it made to the oldest generation, and never releases what
`hold` froze (a run's loaded program, what forked children share). Run in a child process so the
suite's own heap is never frozen or moved."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT, synsema_env

PROBE = r"""
import gc, json
from synsema.lang import gcpause
report = {}
with gcpause.collector_paused():
    made = [[i] for i in range(2000)]
report["made_in_oldest"] = sum(1 for o in gc.get_objects(generation=2) if o is made)
gcpause.hold()
held = gc.get_freeze_count()
with gcpause.collector_paused():
    later = [[i] for i in range(2000)]
report["held_kept"] = gc.get_freeze_count() == held
report["later_not_frozen"] = gc.get_freeze_count() < held + 2000
report["collector_on"] = gc.isenabled()
gcpause.release()
report["released"] = gc.get_freeze_count()
print(json.dumps(report))
"""


def test_a_pause_ages_what_it_made_and_keeps_what_is_held():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=synsema_env(), cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ('{"made_in_oldest": 1, "held_kept": true, '
                                   '"later_not_frozen": true, "collector_on": true, '
                                   '"released": 0}')
