"""SMTP sending against an aiosmtpd double: sent, temporary and permanent failures kept apart."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from pbem.mail.smtp import Outgoing, SmtpSettings, send


class Handler:
    def __init__(self) -> None:
        self.received: list[tuple[str, list[str], bytes]] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address.startswith("later@"):
            return "451 4.3.0 try again later"
        if address.startswith("nobody@"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 Message accepted"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server() -> Iterator[tuple[Handler, int]]:
    handler = Handler()
    port = _free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def mail(n: int, to: str) -> Outgoing:
    raw = f"From: gm@pbem.example\nTo: {to}\nSubject: report {n}\nMessage-ID: <m{n}@pbem.example>\n\nbody {n}\n.\nend\n"
    return Outgoing(n, to, raw.encode())


@pytest.mark.parametrize("connections", [1, 3])
def test_sent_temporary_and_permanent_failures(server: tuple[Handler, int], connections: int) -> None:
    handler, port = server
    settings = SmtpSettings("127.0.0.1", port, "gm@pbem.example", ssl="none")
    mails = [mail(1, "ann@example.org"), mail(2, "later@example.org"), mail(3, "nobody@example.org"),
             mail(4, "bob@example.org")]
    results = {r.id: r for r in send(settings, mails, connections=connections)}
    assert {i: r.outcome for i, r in results.items()} == {1: "sent", 2: "retry", 3: "failed", 4: "sent"}
    assert "451" in results[2].error and "550" in results[3].error
    got = sorted((rcpt[0], content) for _, rcpt, content in handler.received)
    assert [r for r, _ in got] == ["ann@example.org", "bob@example.org"]
    # dot-stuffing and line ends survive the trip
    assert got[0][1].replace(b"\r\n", b"\n").endswith(b"body 1\n.\nend\n")


def test_no_server_means_retry_later() -> None:
    settings = SmtpSettings("127.0.0.1", _free_port(), "gm@pbem.example", ssl="none", timeout=2)
    results = send(settings, [mail(1, "a@example.org"), mail(2, "b@example.org")], connections=1)
    assert sorted((r.id, r.outcome) for r in results) == [(1, "retry"), (2, "retry")]
