"""`pbem run`: the moderator loop — fetch and ingest, resolve due turns, remind, send."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.clock import parse_span
from pbem.club import hooks as club_hooks
from pbem.faults import checkpoint
from pbem.intake import IntakeResult, recover
from pbem.mail.imap import Cursor, ImapInbox, ImapSettings
from pbem.mail.maildir import maildir_messages
from pbem.mail.smtp import Outgoing, SmtpSettings, send
from pbem.moderator import Moderator
from pbem.store import Store
from pbem.words import plural

log = logging.getLogger("pbem.run")


@dataclass
class RoundReport:
    fetched: int = 0
    accepted: int = 0
    refused: int = 0
    ignored: int = 0
    quarantined: int = 0
    resolved: list[str] = field(default_factory=list)
    reminders: int = 0
    sent: int = 0
    retry: int = 0
    failed: int = 0

    def __str__(self) -> str:
        parts = [f"{self.fetched} fetched"]
        if self.fetched:
            parts.append(f"{self.accepted} accepted, {self.refused} refused, {self.ignored} ignored, "
                         f"{self.quarantined} quarantined")
        which = f" ({', '.join(self.resolved)})" if self.resolved else ""
        parts.append(f"{plural(len(self.resolved), 'turn')} resolved{which}")
        parts.append(plural(self.reminders, "reminder"))
        parts.append(f"{self.sent} sent" + (f", {self.retry} to retry" if self.retry else "")
                     + (f", {self.failed} failed for good" if self.failed else ""))
        return "; ".join(parts)


class StoredCursor:
    """An IMAP folder's cursor, kept in the store: it survives restarts and is shared by the
    workers reading the same folder."""

    def __init__(self, store: Store, settings: ImapSettings) -> None:
        self.store, self.account, self.folder = store, settings.account, settings.folder

    def load(self) -> Cursor | None:
        found = self.store.imap_cursor(self.account, self.folder)
        return Cursor(*found) if found is not None else None

    def save(self, cursor: Cursor) -> None:
        self.store.advance_imap_cursor(self.account, self.folder, cursor.uidvalidity, cursor.last_uid)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class Runner:
    """One moderator worker. Several may share a PostgreSQL store: the store's unique keys and
    row claims see to it that no message is taken in twice, no turn resolved twice, no mail
    sent twice."""

    def __init__(self, moderator: Moderator, *, worker: str | None = None, connections: int = 4) -> None:
        self.m = moderator
        self.worker = worker or worker_name()
        self.connections = connections
        config = moderator.config
        self.inbox: ImapInbox | None = None
        if config.imap:
            settings = ImapSettings.from_config(config.imap)
            self.inbox = ImapInbox(settings, StoredCursor(moderator.store, settings))
        self.smtp = SmtpSettings.from_config(config.smtp, config.address) if config.smtp else None
        self.published = False  # the archive ([archive] dir) is refreshed at the first round, then after resolutions

    # the round -----------------------------------------------------------------------------
    def round(self) -> RoundReport:
        report = RoundReport()
        self.fetch(report)
        club_hooks.after_round(self.m)  # open games whose date has come start
        self.resolve_due(report)
        self.remind(report)
        self.send(report)
        self.publish(report)
        log.info("round done: %s", report)
        return report

    def forever(self, interval: float) -> None:
        log.info("pbem run: worker %s, checking every %.0f s", self.worker, interval)
        while True:
            try:
                self.round()
            except Exception:  # noqa: BLE001 - a bad round is logged; the loop lives on
                log.exception("round failed; trying again in %.0f s", interval)
            if self.inbox is not None:
                self.inbox.wait(interval)
            else:
                time.sleep(interval)

    # steps ---------------------------------------------------------------------------------
    def _count(self, report: RoundReport, result: IntakeResult) -> None:
        report.fetched += 1
        if result.status in ("accepted", "refused", "ignored", "quarantined"):
            setattr(report, result.status, getattr(report, result.status) + 1)
        if result.resolved is not None:  # a game that resolves on receipt: this mail resolved a turn
            report.resolved.append(f"{result.game} turn {result.resolved}: {plural(result.reports, 'report')}")

    def fetch(self, report: RoundReport) -> None:
        for result in recover(self.m.intake):
            self._count(report, result)
            log.info("recovered message %s: %s — %s", result.message, result.status, result.reason)
        if self.inbox is not None:
            def keep(uid: int, raw: bytes) -> None:
                result = self.m.ingest(raw, f"imap:{self.m.config.imap.get('folder', 'INBOX')}/{uid}", deliver=False)
                self._count(report, result)
                log.info("message %s: %s — %s", uid, result.status, result.reason)

            self.inbox.fetch_new(keep)
            return
        for item in maildir_messages(self.m.config.maildir):
            raw = item.read()
            if raw is None:
                continue  # another worker took it in and moved it meanwhile
            result = self.m.ingest(raw, str(item.path), deliver=False)
            del raw
            self._count(report, result)
            log.info("%s: %s — %s", item.name, result.status, result.reason)
            item.mark_seen()

    def resolve_due(self, report: RoundReport) -> None:
        # Each resolution first finishes any mail still being taken in (here or by another
        # worker) and then resolves with the sheets in force when it writes (pbem.turns).
        for name, turn in self.m.due_games():
            try:
                # naming the turn: if another worker resolved it meanwhile, this one is refused
                summary = self.m.resolve(name, force=True, turn=turn, deliver=False)  # sent with the round
            except Exception as err:  # noqa: BLE001 - another worker, or a bad game: log, go on
                log.warning("%s: not resolved: %s", name, err)
                continue
            report.resolved.append(f"{name} turn {summary.turn}: {plural(summary.mails, 'report')}")
            log.info("%s: turn %d resolved, %d reports queued", name, summary.turn, summary.mails)

    def remind(self, report: RoundReport) -> None:
        report.reminders += self.m.queue_reminders(self.reminder_spans(), deliver=False)  # sent with the round

    def reminder_spans(self) -> list[timedelta]:
        spans = []
        for text in self.m.config.reminders:
            span = parse_span(text)
            if span is not None:
                spans.append(span)
        return spans

    def publish(self, report: RoundReport) -> None:
        """Refresh the public archive after a round that resolved turns (and at the first round)."""
        directory = self.m.config.archive_dir
        if directory is None or (self.published and not report.resolved):
            return
        from pbem.archive import build_archive

        try:
            done = build_archive(self.m, directory)
        except Exception:  # noqa: BLE001 - the archive is a courtesy: the moderator's work goes on
            log.exception("the archive in %s was not refreshed; trying again after the next resolution", directory)
            return
        self.published = True
        log.info("archive: %s", done)

    def send(self, report: RoundReport) -> None:
        if self.smtp is None:
            report.sent += self.m.deliver()
            return
        store = self.m.store
        while True:
            now = self.m.now()
            claimed = store.claim_mails(self.worker, now, 500, 600)
            if not claimed:
                return
            checkpoint("after-claim")
            bodies = store.mail_bodies([c.id or 0 for c in claimed])
            results = send(self.smtp, [Outgoing(c.id or 0, c.recipient, bodies[c.id or 0]) for c in claimed],
                           connections=self.connections)
            attempts = {c.id: c.attempts for c in claimed}
            created = {c.id: c.created_at for c in claimed}
            recipients = {c.id: c.recipient for c in claimed}
            for r in results:
                if r.outcome == "sent":
                    store.mark_sent(r.id, self.worker, self.m.now())
                    report.sent += 1
                elif r.outcome == "retry" and _age(self.m.now(), created.get(r.id)) > GIVE_UP_AFTER:
                    why = f"gave up after {GIVE_UP_AFTER.days} days of temporary failures; the last: {r.error}"
                    store.mark_failed(r.id, self.worker, why)
                    report.failed += 1
                    log.error("mail %d: %s", r.id, why)
                elif r.outcome == "retry":
                    delay = retry_delay(attempts.get(r.id, 0))
                    store.mark_retry(r.id, self.worker, r.error, self.m.now() + timedelta(seconds=delay))
                    report.retry += 1
                    log.warning("mail %d: will retry in %d s: %s", r.id, delay, r.error)
                else:
                    store.mark_failed(r.id, self.worker, r.error)
                    report.failed += 1
                    log.error("mail %d: failed for good: %s", r.id, r.error)
                    self.m.note_undeliverable(recipients[r.id], r.error)
            if report.retry or report.failed:
                return


#: outgoing mail that has failed only temporarily for this long is given up (and listed as failed)
GIVE_UP_AFTER = timedelta(days=4)


def retry_delay(attempts: int) -> float:
    """Back-off before the next try: doubling from a minute to an hour, with ±20% jitter so that
    mail queued together does not retry together."""
    base = min(60 * (1 << min(attempts, 6)), 3600)
    return round(base * (800 + 400 * secrets.randbelow(1001) / 1000) / 1000, 3)


def _age(now: datetime, created: datetime | None) -> timedelta:
    if created is None:
        return timedelta(0)
    return now - (created if created.tzinfo else created.replace(tzinfo=timezone.utc))


__all__ = ["GIVE_UP_AFTER", "RoundReport", "Runner", "retry_delay", "worker_name", "Path"]
