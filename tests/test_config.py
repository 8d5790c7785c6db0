"""pbem.toml is checked against its schema: typos, wrong types and bad values are errors that say how to fix them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import SCHEMA, TEMPLATE, load_config, write_config
from pbem.errors import PbemError

SMTP = '[smtp]\nhost = "smtp.example.org"\nuser = "gm@example.org"\n'
IMAP = '[imap]\nhost = "imap.example.org"\nuser = "gm@example.org"\n'


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pbem.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(PbemError) as caught:
        load_config(config(tmp_path, text))
    return str(caught.value)


def test_the_written_template_passes_and_every_commented_key_is_known(tmp_path: Path) -> None:
    load_config(write_config(tmp_path))
    uncommented = TEMPLATE.replace("# [", "[").replace("\n# host", "\nhost").replace("\n# port", "\nport")
    for table in ("imap", "smtp"):
        for key in SCHEMA[table]:
            assert f"{key} = " in uncommented or key.startswith("password_")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SMTP + 'pasword = "x"\n', r"unknown key 'pasword' in \[smtp\] — did you mean 'password'\?$"),
        ('[moderator]\nmax_replies_per_huor = 5\n', "did you mean 'max_replies_per_hour'?"),
        ('[smpt]\nhost = "x"\n', r"unknown table \[smpt\] — did you mean \[smtp\]\?"),
        ('[database]\nfolder = "outbox"\n', r"unknown key 'folder' in \[database\] — it belongs in \[outbox\]"),
        ('[inbox]\ncolour = "blue"\n', r"the keys of \[inbox\] are maildir"),
        ('address = "gm@example.org"\n', r"outside any table — put it under \[moderator\]"),
        ('[weather]\nsky = "blue"\n', r"unknown table \[weather\] — the tables are \[moderator\], \[database\]"),
    ],
)
def test_unknown_keys_and_tables_name_the_nearest_known_one(tmp_path: Path, text: str, message: str) -> None:
    assert str(tmp_path / "pbem.toml") in error(tmp_path, text)
    with pytest.raises(PbemError, match=message):
        load_config(config(tmp_path, text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SMTP + 'password = "x"\nport = "587"\n',
         r"\[smtp\] port must be a whole number \(no quotes\), not the string '587'; write it like port = 587"),
        ('[moderator]\nmax_replies_per_hour = "20"\n', r"\[moderator\] max_replies_per_hour must be a whole number"),
        ('[moderator]\nmax_replies_per_hour = 2.5\n', "not the number 2.5"),
        ('[moderator]\naddress = true\n',
         r"\[moderator\] address must be a string \(in quotes\), not the boolean true"),
        ('[reminders]\nbefore = "48h"\n', r'\[reminders\] before must be a list of spans .* not the string \'48h\''),
        ('[reminders]\nbefore = [48]\n', "not the list \\[48\\]"),
        ('database = "sqlite:///x"\n', "database must be a table"),
        (SMTP + "password = 123456\n", r"\[smtp\] password must be a string \(in quotes\), not a whole number;"),
    ],
)
def test_values_of_the_wrong_type_name_the_key_the_type_and_what_was_found(tmp_path: Path, text: str,
                                                                          message: str) -> None:
    with pytest.raises(PbemError, match=message):
        load_config(config(tmp_path, text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[moderator]\nmax_replies_per_hour = 0\n', "max_replies_per_hour must be a positive whole number, not 0"),
        ('[moderator]\nmax_replies_per_hour = -3\n', "must be a positive whole number, not -3"),
        ('[reminders]\nbefore = ["48h", "-6h"]\n', r"\[reminders\] before: '-6h' is not a span"),
        ('[reminders]\nbefore = ["nan"]\n', "'nan' is not a span"),
        ('[reminders]\nbefore = ["0h"]\n', "must be longer than zero"),
        ('[reminders]\nbefore = ["99999999d"]\n', "too long"),
        (SMTP + 'password = "x"\nport = 70000\n', r"\[smtp\] port must be a port number from 1 to 65535, not 70000"),
        (SMTP + 'password = "x"\nssl = "yes"\n', r'\[smtp\] ssl must be "none", "starttls" or "tls", not \'yes\''),
    ],
)
def test_numbers_and_spans_must_make_sense(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(PbemError, match=message):
        load_config(config(tmp_path, text))


def test_every_mistake_is_named_at_once(tmp_path: Path) -> None:
    message = error(tmp_path, '[moderator]\nnmae = "x"\nmax_replies_per_hour = 0\n[smpt]\n')
    assert "has 3 mistakes" in message
    assert "'nmae'" in message and "max_replies_per_hour" in message and "[smpt]" in message


def test_a_password_from_an_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "s3cret")
    loaded = load_config(config(tmp_path, SMTP + 'password_env = "PBEM_SMTP_PASSWORD"\n'))
    assert loaded.smtp["password"] == "s3cret" and "password_env" not in loaded.smtp


def test_a_missing_or_empty_environment_variable_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_SMTP_PASSWORD", raising=False)
    text = SMTP + 'password_env = "PBEM_SMTP_PASSWORD"\n'
    with pytest.raises(PbemError, match="PBEM_SMTP_PASSWORD, which is not set: export PBEM_SMTP_PASSWORD=..."):
        load_config(config(tmp_path, text))
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "")
    with pytest.raises(PbemError, match="is empty"):
        load_config(config(tmp_path, text))


def test_a_password_from_a_file_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "imap-password").write_text("hunter2\n", encoding="utf-8")
    loaded = load_config(config(tmp_path, IMAP + 'password_file = "imap-password"\n'))
    assert loaded.imap["password"] == "hunter2" and "password_file" not in loaded.imap


def test_a_missing_or_empty_password_file_is_an_error(tmp_path: Path) -> None:
    text = IMAP + 'password_file = "nowhere/pw"\n'
    with pytest.raises(PbemError, match=r"cannot read \[imap\] password_file .*nowhere/pw: No such file"):
        load_config(config(tmp_path, text))
    (tmp_path / "pw").write_text("\n", encoding="utf-8")
    with pytest.raises(PbemError, match="is empty: write the password on its first line"):
        load_config(config(tmp_path, IMAP + 'password_file = "pw"\n'))


def test_exactly_one_password_source(tmp_path: Path) -> None:
    with pytest.raises(PbemError, match=r"\[smtp\] has password and password_env: give exactly one of"):
        load_config(config(tmp_path, SMTP + 'password = "x"\npassword_env = "PW"\n'))
    with pytest.raises(PbemError, match=r"\[imap\] needs a password: add password = "):
        load_config(config(tmp_path, IMAP))
    anonymous = load_config(config(tmp_path, '[smtp]\nhost = "localhost"\nport = 25\nssl = "none"\n'))
    assert "password" not in anonymous.smtp


def test_the_cli_reports_a_config_mistake_cleanly(tmp_path: Path) -> None:
    path = config(tmp_path, SMTP + 'pasword = "x"\n')
    result = CliRunner().invoke(main, ["status", "race", "--config", str(path)])
    assert result.exit_code == 1
    assert "did you mean 'password'?" in result.output and "Traceback" not in result.output


def test_the_public_address_settings_reach_intake(tmp_path: Path) -> None:
    from pbem.moderator import Moderator

    path = write_config(tmp_path, address="gm@example.org")
    text = path.read_text().replace("max_replies_per_hour = 20",
                                    'max_replies_per_hour = 20\nreply_to_strangers = true\nstrangers_per_hour = 5\n'
                                    'authserv_id = "mx.example.org"\nmax_mail_kb = 1024')
    path.write_text(text)
    policy = Moderator(load_config(path)).intake.policy
    assert (policy.reply_to_strangers, policy.strangers_per_hour, policy.authserv_id, policy.max_bytes) == (
        True, 5, "mx.example.org", 1024 * 1024)
    assert policy.address == "gm@example.org"
    path.write_text(text.replace("reply_to_strangers = true", 'reply_to_strangers = "yes"'))
    with pytest.raises(PbemError, match="reply_to_strangers must be true or false"):
        load_config(path)
