"""A key's folder and name (unoduo_tui/ssh/identity.py)."""

from __future__ import annotations

import json

from unoduo_tui.ssh.identity import IDENTITY_FILE, folder_name, identify

FP = "SHA256:ab+cd/EF0123"


def test_a_fingerprint_makes_one_safe_path_segment():
    assert folder_name(FP) == "SHA256_ab-cd_EF0123"
    assert folder_name("SHA256:../../etc") == "SHA256_______etc"  # no way out
    assert folder_name("SHA256:a+b") != folder_name("SHA256:a/b")


def test_the_login_names_a_new_key_once_cleaned_and_the_name_is_kept(tmp_path):
    first = identify(tmp_path, FP, "\x1b[31mAnn\x07  Lee")
    assert first.name == "Ann Lee"
    assert first.folder == tmp_path / "players" / "SHA256_ab-cd_EF0123"
    assert first.folder.stat().st_mode & 0o777 == 0o700
    path = first.folder / IDENTITY_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == {"fingerprint": FP, "name": "Ann Lee"}
    assert identify(tmp_path, FP, "root").name == "Ann Lee"  # the key, not the login


def test_a_damaged_identity_file_is_written_afresh(tmp_path):
    folder = identify(tmp_path, FP, "ann").folder
    (folder / IDENTITY_FILE).write_text("{not json")
    assert identify(tmp_path, FP, "bea").name == "bea"
    (folder / IDENTITY_FILE).write_text(json.dumps({"name": "\x1b]0;x\x07Cy"}))
    assert identify(tmp_path, FP, "dee").name == "Cy"  # what the lobby wrote, cleaned
