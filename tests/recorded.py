"""Recorded expectations of the native core's tests (test_native_hand, _scoring, _hongkong): results
are reduced to SHA-256 digests, compared with recorded digests (their history: docs/versions.md). ``TW16_RECORD=1 pytest -s tests/test_native_X.py`` prints a file's digests
for re-recording, after a deliberate change has been checked."""

from __future__ import annotations

import json
import os

import pytest

RECORD = os.environ.get("TW16_RECORD") == "1"

# Items appended to the registry after the recordings (envs/scoring/codes.py ITEMS is append only:
# wind_pung, PLATFORMS.md 4): no recorded profile names them, so their columns must stay 0 and the
# digests read the columns the recordings had.
RECORDED_N_ITEMS = 158


def recorded_items(items):
    """``items`` (..., N_ITEMS) cut to the recorded columns, after checking the later ones are 0."""
    assert not items[..., RECORDED_N_ITEMS:].any(), "an item appended after the recording scored in a recorded run"
    return items[..., :RECORDED_N_ITEMS]


class Digests:
    """One test file's digests: ``recorded`` (from the file) and ``new`` (this run's)."""

    def __init__(self):
        self.recorded: dict[str, str] = {}
        self.new: dict[str, str] = {}

    def check(self, key: str, got: str, inputs_key: str | None = None) -> None:
        """``got`` must equal the recorded digest of ``key``; when ``inputs_key`` names the digest of
        the inputs and those changed, say so instead (the results are then not comparable)."""
        self.new[key] = got
        if RECORD:
            return
        if inputs_key is not None and self.new.get(inputs_key) != self.recorded.get(inputs_key):
            pytest.fail(
                f"the inputs of {key} changed ({inputs_key}: {self.new.get(inputs_key)}, recorded "
                f"{self.recorded.get(inputs_key)}): check the new results, then re-record (TW16_RECORD=1)"
            )
        assert got == self.recorded.get(key), f"{key}: results differ from the recorded ones"

    def print_for_recording(self, capsys) -> None:
        """Record mode (TW16_RECORD=1, with -s): print this run's digests for the file's RECORDED."""
        if not RECORD:
            return
        with capsys.disabled():
            print("\nRECORDED.update(" + json.dumps(dict(sorted(self.new.items())), indent=4) + ")")
