"""The guides say what pbem does: every mail example of the player's guide, sent as a player would
send it, gets the answer the guide promises and no refusal; every mail command is shown by an
example; and every `pbem` command the guides name exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.games.sheet import ARGUMENT_COMMANDS, COMMANDS, HEADER_WORDS, PRESS
from tests.test_mail_commands import Folder, client_mail, ok, run, text_of

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "players.md"
GUIDES = [GUIDE, ROOT / "docs" / "gm.md", ROOT / "README.md"]
SECRET = "7K2-MQ9"

#: what the answer to each command opens with, as the guide promises it
ANSWERS = {
    "HELP": "here is how to play by mail.",
    "STATUS": "where the game stands:",
    "HISTORY": "the turns of race-7 so far:",
    "RESEND": "your report of turn 1 again, as it was sent",
    "PREVIEW": "this is what your sheet would do in turn 2",
    "SUGGEST": "what pbem's strong computer player would send for your seat in turn 2",
    "STANDING": "this sheet stays in force for later turns too",
    "VACATION": "you are away from 2026-12-24 to 2026-12-31",
    "PRESS": "your message was relayed:",
    "SEND SECRET": f"your secret for race-7 is\n\n  {SECRET}",
    "NEW SECRET": "you asked for a new one",
    "TIMEZONE": "your time zone is set:",
    "SITTER": "your computer sitter (strong) is named:",
}
#: words in an answer that say a command was not done
NOT_DONE = ("not done", "not relayed", "no suggestion", "refused", "rejected", "not understood", "wrong secret")


def examples() -> list[str]:
    """The mail bodies of the player's guide: its ```mail blocks."""
    return re.findall(r"^```mail\n(.*?)^```", GUIDE.read_text(encoding="utf-8"), flags=re.M | re.S)


def commands_in(body: str) -> list[str]:
    words = [*COMMANDS, *ARGUMENT_COMMANDS, PRESS, "TIMEZONE"]
    lines = [line.strip().upper() for line in body.splitlines()]
    return [w for w in words if any(line == w or line.startswith(w + " ") for line in lines)]


def test_the_guide_shows_every_mail_command() -> None:
    shown = {w for body in examples() for w in commands_in(body)}
    every = {*COMMANDS, *ARGUMENT_COMMANDS, PRESS, *(w for w in HEADER_WORDS if w == "TIMEZONE")}
    assert every == set(ANSWERS)
    assert shown == every, every - shown


@pytest.fixture
def race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Folder:
    """The guide's game: race-7, Ann (secret 7K2-MQ9) and Bob, turn 1 resolved."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    ok(run("init", ".", "--address", "gm@pbem.example"))
    ok(run("new-game", "race-7", "--seed", "7", "--deadline", "7d", "--player", "Ann=ann@example.org",
           "--player", "Bob=bob@example.org", "--secret", f"Ann={SECRET}"))
    ok(run("resolve-turn", "race-7", "--force"))
    return Folder(tmp_path)


@pytest.mark.parametrize("body", examples(), ids=lambda body: " ".join(commands_in(body)) or "orders")
def test_each_example_of_the_guide_is_answered_as_promised(race: Folder, body: str) -> None:
    _, mails = race.send(client_mail("ann@example.org", body, mid=f"{abs(hash(body))}@example.org"))
    to_ann = [text_of(p) for p in mails if "ann@example.org" in p.name]
    assert to_ann, [p.name for p in mails]
    said = "\n".join(to_ann)
    for word in commands_in(body):
        assert ANSWERS[word] in said, (word, said)
    assert not any(w in said.lower() for w in NOT_DONE), said


def named_commands(text: str) -> set[str]:
    """The `pbem` commands a page names: in inline code (`pbem status`) and on the command lines of
    its code blocks."""
    inline = re.findall(r"`pbem ([a-z][a-z-]*)", text)
    blocks = "\n".join(re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S))
    lines = re.findall(r"^\s*pbem ([a-z][a-z-]*)", blocks, flags=re.M)
    return set(inline) | set(lines)


def test_every_pbem_command_the_guides_name_exists() -> None:
    known = set(main.commands)  # type: ignore[attr-defined]
    for path in GUIDES:
        named = named_commands(path.read_text(encoding="utf-8"))
        assert not named - known, (path.name, sorted(named - known))
    assert len(named_commands((ROOT / "docs" / "gm.md").read_text(encoding="utf-8"))) >= 20


def test_every_option_the_guides_give_a_command_exists() -> None:
    """`pbem new-game race-7 --early` in a guide's code block: new-game has an option --early."""
    for path in GUIDES:
        text = path.read_text(encoding="utf-8")
        blocks = "\n".join(re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S)).replace("\\\n", " ")
        for name, rest in re.findall(r"^\s*pbem ([a-z][a-z-]*)(.*)$", blocks, flags=re.M):
            command = main.commands[name]  # type: ignore[attr-defined]
            options = {opt for param in command.params for opt in param.opts} | {"--help"}
            words = re.split(r"#|&&|\|\||;|>>", rest)[0].split()
            if words and isinstance(command, type(main)):  # a group: its subcommand's options
                sub = command.commands[words[0]]
                options |= {opt for param in sub.params for opt in param.opts}
            for word in words:
                if word.startswith("-") and word != "-":
                    assert word.split("=")[0] in options, (path.name, name, word)
