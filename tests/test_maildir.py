"""Reading order mails from a Maildir or a folder: one at a time, taken-in mail left unread,
and two readers of one Maildir at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail import maildir
from pbem.mail.maildir import MailFile, folder_messages, is_seen, mail_files, maildir_messages, seen_name


@pytest.fixture
def box(tmp_path: Path) -> Path:
    for sub in ("cur", "new", "tmp"):
        (tmp_path / "inbox" / sub).mkdir(parents=True)
    return tmp_path / "inbox"


def names(files: list[MailFile]) -> list[str]:
    return [f"{f.path.parent.name}/{f.name}" for f in files]


@pytest.mark.parametrize(("name", "seen"), [
    ("1700.1.host", "1700.1.host:2,S"),
    ("1700.1.host:2,", "1700.1.host:2,S"),
    ("1700.1.host:2,FR", "1700.1.host:2,FRS"),
    ("1700.1.host:2,ST", "1700.1.host:2,ST"),
])
def test_the_seen_flag_is_added_in_ascii_order(name: str, seen: str) -> None:
    assert seen_name(name) == seen
    assert is_seen(seen)


def test_new_and_unseen_cur_are_read_seen_cur_is_skipped_by_name(box: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (box / "new" / "2.b.host").write_bytes(b"new mail")
    (box / "cur" / "1.a.host:2,").write_bytes(b"listed by a mail program, not taken in")
    (box / "cur" / "0.z.host:2,S").write_bytes(b"taken in before")
    (box / "cur" / "0.y.host:2,RS").write_bytes(b"taken in and answered")
    (box / "new" / ".hidden").write_bytes(b"not a message")
    opened: list[Path] = []
    real = Path.read_bytes

    def spy(path: Path) -> bytes:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", spy)
    files = list(maildir_messages(box))
    assert names(files) == ["new/2.b.host", "cur/1.a.host:2,"]
    assert opened == []  # listing reads no message
    assert [f.read() for f in files] == [b"new mail", b"listed by a mail program, not taken in"]
    assert all(f.mark_seen() for f in files)
    assert sorted(p.name for p in (box / "cur").iterdir()) == [
        "0.y.host:2,RS", "0.z.host:2,S", "1.a.host:2,S", "2.b.host:2,S"]
    assert list(maildir_messages(box)) == []


def test_messages_are_read_lazily_one_at_a_time(box: Path) -> None:
    for n in range(3):
        (box / "new" / f"{n}.x.host").write_bytes(b"x" * 10)
    files = maildir_messages(box)
    first = next(files)
    assert isinstance(first, MailFile) and first.read() == b"x" * 10


def test_a_message_moved_away_by_another_reader_is_skipped(box: Path) -> None:
    (box / "new" / "1.a.host").write_bytes(b"one")
    (box / "new" / "2.b.host").write_bytes(b"two")
    mine, theirs = list(maildir_messages(box)), list(maildir_messages(box))
    # the other reader takes in the first message before this one gets to it
    assert theirs[0].read() == b"one" and theirs[0].mark_seen()
    assert mine[0].read() is None
    assert mine[0].mark_seen() is False
    # both read the second; the other one moves it first
    assert mine[1].read() == theirs[1].read() == b"two"
    assert theirs[1].mark_seen() and mine[1].mark_seen() is False
    assert sorted(p.name for p in (box / "cur").iterdir()) == ["1.a.host:2,S", "2.b.host:2,S"]


def test_a_plain_folder_is_read_in_name_order_and_left_alone(tmp_path: Path) -> None:
    (tmp_path / "b.eml").write_bytes(b"b")
    (tmp_path / "a.eml").write_bytes(b"a")
    (tmp_path / "sub").mkdir()
    files = list(folder_messages(tmp_path))
    assert [f.name for f in files] == ["a.eml", "b.eml"]
    assert all(f.mark_seen() for f in files)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.eml", "b.eml", "sub"]


def test_mail_files_tells_maildir_folder_and_file_apart(box: Path, tmp_path: Path) -> None:
    (box / "new" / "1.a.host").write_bytes(b"m")
    (tmp_path / "one.eml").write_bytes(b"e")
    assert [f.maildir for f in mail_files(box)] == [box]
    assert [f.maildir for f in mail_files(tmp_path / "one.eml")] == [None]
    assert maildir.is_maildir(box) and not maildir.is_maildir(tmp_path)
