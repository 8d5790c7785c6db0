"""pbem does not trust \\Seen: it reads an IMAP folder past the highest UID it took in, and
starts over (Message-IDs keep it from taking anything twice) when the folder's UIDVALIDITY
changes. Against a real Dovecot, where a GM's mail program reads the orders first."""

from __future__ import annotations

from pathlib import Path

from conftest import MailStack  # type: ignore[attr-defined]
from pbem.store import Store
from test_mail_e2e import PLAYERS, new_game, orders, pbem, setup_gm, swaks


def test_the_cursor_only_moves_forward_until_uidvalidity_changes(url: str) -> None:
    store = Store(url)
    store.create()
    assert store.imap_cursor("gm@mail", "INBOX") is None
    store.advance_imap_cursor("gm@mail", "INBOX", 77, 5)
    store.advance_imap_cursor("gm@mail", "INBOX", 77, 3)  # a slower worker: no step back
    assert store.imap_cursor("gm@mail", "INBOX") == (77, 5)
    store.advance_imap_cursor("gm@mail", "INBOX", 77, 9)
    assert store.imap_cursor("gm@mail", "INBOX") == (77, 9)
    store.advance_imap_cursor("gm@mail", "INBOX", 78, 0)  # the folder was recreated: UIDs start over
    assert store.imap_cursor("gm@mail", "INBOX") == (78, 0)
    store.advance_imap_cursor("gm@mail", "Orders", 2**32 - 1, 2**32 - 2)  # unsigned 32-bit values fit
    assert store.imap_cursor("gm@mail", "Orders") == (2**32 - 1, 2**32 - 2)
    assert store.imap_cursor("gm@mail", "INBOX") == (78, 0)


def read_in_mail_program(stack: MailStack, folder: str = "INBOX") -> None:
    """The GM opens the mailbox in a mail program and reads every message: FETCH BODY[] (not
    BODY.PEEK[]) flags each one \\Seen, as reading a message in any mail program does."""
    with stack.imap("gm") as client:
        client.select_folder(folder)
        uids = client.search(["ALL"])
        client.fetch(uids, [b"BODY[]"])
        assert client.search(["UNSEEN"]) == []


def test_orders_the_gm_read_in_a_mail_program_are_still_taken_in(clean_mailstack: MailStack, tmp_path: Path) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack)
    new_game(config, stack)
    assert "3 sent" in pbem(config, "run", "--once").stdout
    for p in PLAYERS:
        swaks(stack, p, orders(p, "NEXT"))
    stack.wait_for_messages("gm", 3)
    read_in_mail_program(stack)
    out = pbem(config, "run", "--once").stdout
    assert "3 fetched; 3 accepted" in out, out
    assert "3 of 3 sheets in" in pbem(config, "status", "race").stdout
    # the next round starts past them: nothing is fetched twice
    out = pbem(config, "run", "--once").stdout
    assert out.startswith("pbem run: 0 fetched;"), out
    # a late sheet, read by the GM before pbem runs, comes in too
    swaks(stack, "alice", orders("alice", "TO 5"))
    stack.wait_for_messages("gm", 4)
    read_in_mail_program(stack)
    out = pbem(config, "run", "--once").stdout
    assert "1 fetched; 1 accepted" in out, out


def test_a_new_uidvalidity_reads_the_folder_again_and_takes_nothing_twice(clean_mailstack: MailStack,
                                                                          tmp_path: Path) -> None:
    """The GM keeps orders in a folder of their own, deletes it and makes it again (as a
    restore from a backup would): UIDs start over at 1, below the cursor of the old folder."""
    stack = clean_mailstack
    imap = stack.imap_config("gm", folder="Orders")
    config = setup_gm(tmp_path / "gm", stack)
    text = config.read_text(encoding="utf-8").replace('folder = "INBOX"', 'folder = "Orders"')
    config.write_text(text, encoding="utf-8")
    assert 'folder = "Orders"' in text and imap["folder"] == "Orders"
    with stack.imap("gm") as client:
        if client.folder_exists("Orders"):
            client.delete_folder("Orders")
        client.create_folder("Orders")
    new_game(config, stack)
    pbem(config, "run", "--once")
    for p in PLAYERS:
        swaks(stack, p, orders(p, "NEXT"))
    sent = stack.wait_for_messages("gm", 3)
    raws = [m.as_bytes() for m in sent if str(m["Subject"]) == "race orders"]
    assert len(raws) == 3
    with stack.imap("gm") as client:
        for raw in raws[:2]:
            client.append("Orders", raw)
        old = client.select_folder("Orders")[b"UIDVALIDITY"]
    out = pbem(config, "run", "--once").stdout
    assert "2 fetched; 2 accepted" in out, out

    with stack.imap("gm") as client:
        client.delete_folder("Orders")
        client.create_folder("Orders")
        for raw in raws:  # the two taken in already, and a new one: UIDs 1, 2, 3
            client.append("Orders", raw)
        info = client.select_folder("Orders")
        assert info[b"UIDVALIDITY"] != old
        assert sorted(client.search(["ALL"])) == [1, 2, 3]
    out = pbem(config, "run", "--once").stdout
    # all three are read again: the two known ones are duplicates, the new one is taken in
    assert "3 fetched; 1 accepted, 0 refused, 0 ignored, 0 quarantined" in out, out
    assert "3 of 3 sheets in" in pbem(config, "status", "race").stdout
    out = pbem(config, "run", "--once").stdout
    assert out.startswith("pbem run: 0 fetched;"), out
