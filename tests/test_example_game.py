"""A game from a distribution of its own: examples/goofspiel is installed beside pbem (built from
this checkout) into a fresh virtual environment, found through its entry point alone, and played to
its end by mail through `pbem run` — two players by mail, one computer player — with its own
templates and rule cases coming from its package; and, in this process, its reports show nobody
another player's sheet or the order of the face-down prizes.

The build takes no network: pbem's dependencies come from the system's site packages
(`--system-site-packages`), and both projects are built with the hatchling already there
(`--no-build-isolation`, `--no-deps`, `--no-index`).
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from conftest import in_ci

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "goofspiel"
SECRETS = {"Ann": "AAA-111", "Bob": "BBB-222"}
ADDRESSES = {"Ann": "ann@example.org", "Bob": "bob@example.net"}


@dataclass(frozen=True)
class Venv:
    home: Path
    env: dict[str, str]

    def run(self, *args: str, cwd: Path | None = None, timeout: float = 300) -> str:
        result = subprocess.run(list(args), cwd=cwd, env=self.env, capture_output=True, text=True, timeout=timeout,
                                check=False)
        assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def pbem(self, gm: Path, *args: str) -> str:
        return self.run(str(self.home / "bin" / "pbem"), *args, cwd=gm)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    home = tmp_path_factory.mktemp("venv") / "env"
    # nothing of this checkout or of the GM's settings leaks in: the installed copies alone run
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PBEM_CONFIG", "VIRTUAL_ENV")}
    env.update(PBEM_NOW="2026-11-20T09:00:00Z", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_ROOT_USER_ACTION="ignore")
    v = Venv(home, env)
    v.run(sys.executable, "-m", "venv", "--system-site-packages", str(home))
    python = str(home / "bin" / "python")
    if subprocess.run([python, "-c", "import hatchling"], env=env, capture_output=True, check=False).returncode:
        # hatchling comes with pbem's test extra; an environment set up before it was there gets it here
        got = subprocess.run([python, "-m", "pip", "install", "-q", "hatchling"], env=env, capture_output=True,
                             text=True, check=False)
        if got.returncode:
            if in_ci():
                pytest.fail(f"hatchling cannot be installed: {got.stderr}")
            pytest.skip("hatchling is not installed: pip install -e '.[test]'")
    for project in (ROOT, EXAMPLE):
        v.run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", str(project))
    where = v.run(python, "-c", "import pbem, goofspiel; print(pbem.__file__); print(goofspiel.__file__)",
                  cwd=home).split()
    assert all(str(home) in w for w in where), where  # the wheels, not this checkout
    return v


def _mails(gm: Path, address: str) -> Iterator[tuple[str, str]]:
    """The subject and text of every mail written to `address`, in order."""
    for path in sorted((gm / "outbox").glob("*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if address in str(msg["To"]):
            body = msg.get_body(("plain",))
            assert body is not None
            yield str(msg["Subject"]), str(body.get_content())  # type: ignore[attr-defined]


def _order_mail(name: str, body: str, turn: int) -> bytes:
    return (f"From: {name} <{ADDRESSES[name]}>\nTo: gm@pbem.example\nSubject: orders\n"
            f"Message-ID: <{name.lower()}-{turn}@example.org>\nDate: Fri, 20 Nov 2026 10:00:00 +0000\n"
            f"Content-Type: text/plain; charset=utf-8\n\n{body}").encode()


def _bids(report: str) -> tuple[int, dict[str, int]]:
    """The prize of a report and every seat's bid for it, as the report reveals them."""
    found = re.search(r"THE BIDS FOR THE (\d+)\n((?:  \S+ +\d+\n)+)", report)
    assert found, report
    return int(found[1]), {line.split()[0]: int(line.split()[1]) for line in found[2].splitlines()}


def test_the_example_distribution_registers_its_game_cases_and_templates(venv: Venv, tmp_path: Path) -> None:
    out = venv.pbem(tmp_path, "check-cases")  # every registered game's own cases, from the wheels
    passed = int(out.split()[-4])
    assert out.endswith(f"{passed} passed, 0 failed\n") and passed > 200
    probe = ("from pbem.games import games\nfrom pbem.resources import game_folder\n"
             "for g in games():\n"
             "    t = game_folder(g.package, 'templates')\n"
             "    print(g.info.name, sorted(p.name for p in t.iterdir()) if t else None)\n")
    folders = dict(line.split(" ", 1) for line in venv.run(str(venv.home / "bin" / "python"), "-c", probe,
                                                       cwd=tmp_path).splitlines())
    assert "goofspiel" in folders and len(folders) >= 4
    assert all("report.txt.j2" in listing for listing in folders.values()), folders


def test_goofspiel_plays_to_its_end_by_mail_through_pbem_run(venv: Venv, tmp_path: Path) -> None:
    gm = tmp_path / "gm"
    gm.mkdir()
    venv.pbem(gm, "init", ".", "--address", "gm@pbem.example")
    venv.pbem(gm, "new-game", "bids", "--game", "goofspiel", "--seed", "11", "--player", f"Ann={ADDRESSES['Ann']}",
              "--player", f"Bob={ADDRESSES['Bob']}", "--player", "Cyd=bot:simple",
              "--secret", f"Ann={SECRETS['Ann']}", "--secret", f"Bob={SECRETS['Bob']}")
    # Ann bids the prize's own card while she holds it, else her lowest; Bob bids from the top down
    sheets = {"Ann": "BID PRIZE\nBID LOWEST", "Bob": "BID HIGHEST"}
    for turn in range(1, 14):
        for name, lines in sheets.items():
            mail = _order_mail(name, f"GAME bids\nTURN {turn}\nSECRET {SECRETS[name]}\n{lines}\n", turn)
            (gm / "inbox" / "new" / f"{turn:02d}{name}.M1.host").write_bytes(mail)
        for _ in range(3):  # the computer player's sheet may take a round of its own
            venv.pbem(gm, "run", "--once")
            if len(list((gm / "outbox").glob(f"*-report-{ADDRESSES['Ann']}.eml"))) == turn:
                break
        else:
            pytest.fail(f"turn {turn} was not resolved")
    final = json.loads(venv.pbem(gm, "show", "bids", "--json"))
    assert final["over"] and final["prize"] is None and all(s["hand"] == [] for s in final["seats"])

    # every turn as the reports tell it: the bids revealed, the rule applied, the scores added up
    reports = {name: [text for subject, text in _mails(gm, address) if "report" in subject.lower()]
               for name, address in ADDRESSES.items()}
    assert len(reports["Ann"]) == len(reports["Bob"]) == 13
    scores: Counter[str] = Counter()
    hand = set(range(1, 14))
    for turn, (ann, bob) in enumerate(zip(reports["Ann"], reports["Bob"], strict=True), start=1):
        prize, bids = _bids(ann)
        assert _bids(bob) == (prize, bids) and set(bids) == {"Ann", "Bob", "Cyd"}
        assert bids["Ann"] == (prize if prize in hand else min(hand)), (turn, prize, bids)
        hand.discard(bids["Ann"])
        assert bids["Bob"] == 14 - turn
        count = Counter(bids.values())
        unmatched = [(card, name) for name, card in bids.items() if count[card] == 1]
        if unmatched:
            scores[max(unmatched)[1]] += prize
            assert f"{max(unmatched)[1]} takes the {prize}." in ann
        else:
            assert f"Every bid was matched: the {prize} is discarded." in ann
        # a sheet's lines are its writer's alone; the bids are everyone's
        assert "Your bid came from the line BID " in ann and "Your bid came from the line BID HIGHEST." in bob
        assert "BID PRIZE" not in bob and "BID LOWEST" not in bob.split("Reply to")[0]
    assert {s["name"]: s["score"] for s in final["seats"]} == {n: scores[n] for n in ("Ann", "Bob", "Cyd")}
    best = max(scores.values())
    leaders = [n for n in ("Ann", "Bob", "Cyd") if scores[n] == best]
    assert final["winners"] == leaders
    ending = f"{leaders[0]} wins the game." if len(leaders) == 1 else f"{' and '.join(leaders)} share the win."
    assert ending in reports["Ann"][-1] and ending in reports["Bob"][-1]
    with_orders = [text for _, text in _mails(gm, ADDRESSES["Ann"])]
    assert not any("REJECTED" in text for text in with_orders), "every line Ann sent was taken"


def test_no_report_shows_another_players_sheet_nor_the_face_down_prizes(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process (the tests register the example games): every report is the same bytes
    whatever another player's sheet said and however the face-down prizes lie; and the check
    fails on a planted leak."""
    from click.testing import CliRunner
    from mailcheck import report_differences

    from pbem.cli import main
    from pbem.config import load_config
    from pbem.games import games
    from pbem.moderator import Moderator

    if "goofspiel" not in {g.info.name for g in games()}:
        pytest.skip("the example games are left out (--no-example-games)")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    cli = CliRunner()
    assert cli.invoke(main, ["init", "."]).exit_code == 0
    players = [f"{n}={a}" for n, a in ADDRESSES.items()] + ["Cyd=cyd@example.com"]
    args = ["new-game", "bids", "--game", "goofspiel", "--seed", "5", *(f"--player={p}" for p in players),
            *(f"--secret={n}={s}" for n, s in SECRETS.items())]
    assert cli.invoke(main, args).exit_code == 0
    for turn in (1, 2, 3):
        for name, lines in (("Ann", "BID 13 IF PRIZE > 11\nBID PRIZE"), ("Bob", "BID 1 IF PRIZE < 3\nBID HIGHEST")):
            path = tmp_path / f"{name}{turn}.eml"
            path.write_bytes(_order_mail(name, f"GAME bids\nSECRET {SECRETS[name]}\n{lines}\n", turn))
            assert cli.invoke(main, ["ingest", str(path)]).exit_code == 0
        assert cli.invoke(main, ["resolve-turn", "bids", "--force"]).exit_code == 0
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    assert list(report_differences(m, "bids")) == []

    from goofspiel import view as views

    honest = views.view  # planted: the face-down prizes listed in the order they lie
    monkeypatch.setattr(views, "view", lambda state, viewer: replace(honest(state, viewer), prizes_left=state.deck))
    assert list(report_differences(m, "bids")), "a report that shows the order of the face-down prizes is caught"
