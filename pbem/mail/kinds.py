"""What each outgoing mail is for: its kind, as the mailer writes it and the store keeps it."""

from __future__ import annotations

import enum


class MailKind(enum.StrEnum):
    WELCOME = "welcome"
    ACK = "ack"
    REFUSAL = "refusal"
    REPORT = "report"
    GM_REPORT = "gm-report"
    REMINDER = "reminder"
    SECRET = "secret"  # noqa: S105 - the kind of mail that carries a secret, not one
    GM_ALERT = "gm-alert"
    ANSWER = "answer"  # the answer to a player's mail command (HELP, STATUS, PREVIEW, ...)
    PRESS = "press"  # a player's PRESS message, relayed to the other players
    NOTICE = "notice"  # the GM's news to the players: a pause, a new deadline, the end
    SUGGESTION = "suggestion"  # the answer to a SUGGEST line
