"""Which mails are not a person's own writing (bounces, auto-replies, list mail, receipts), and why."""

from __future__ import annotations

import re
from collections.abc import Collection
from email.message import Message
from typing import Final

from pbem.mail import mime
from pbem.mail.headers import decoded, raw_headers

# Reasons returned by classify() and extract_orders_text().
AUTO_REPLY: Final = "auto-reply"
BOUNCE: Final = "bounce"
LIST_MAIL: Final = "list mail"
COMPLAINT: Final = "complaint"
READ_RECEIPT: Final = "read receipt"
NOT_MAIL: Final = "not mail"
OWN_MAIL: Final = "own mail"  # from pbem's own address: answering it would loop
NULL_SENDER: Final = "null sender"  # Return-Path: <> (RFC 3834 2: never answered)
REPORT: Final = "report"  # any other multipart/report
NO_TEXT: Final = "no text"  # no readable text part at all
NO_NEW_TEXT: Final = "no new text"  # only quoted text, a signature or nothing


_MAIL_HEADERS: Final = frozenset(
    "from to cc subject date message-id received mime-version"
    " content-type return-path sender reply-to delivered-to in-reply-to".split()
)
_LIST_HEADERS: Final = frozenset(
    "list-id list-unsubscribe list-post list-subscribe list-help list-owner"
    " list-archive mailing-list x-mailing-list x-ml-name x-mlserver".split()
)
_DAEMON_RE = re.compile(
    r"(?:^|[<\s\"])(?:mailer-daemon|mailer_daemon|mail-daemon|mailerdaemon|postmaster)"
    r"(?:@|>|\s|$)",
    re.I,
)
_AUTO_HEADERS: Final = frozenset(
    "x-autoreply x-autorespond x-autoresponder x-autoreply-from x-mail-autoreply".split()
)
# Nobody sends orders from an address that takes no replies.
_NOREPLY_RE = re.compile(r"(?:^|[<\s\"])(?:no-?reply|do-?not-?reply|donotreply)[\w.+-]*@", re.I)
# Subjects are the weakest hint (a player may write anything), so only the fixed
# phrasings of mail servers and vacation programs count, mostly with their colon.
_BOUNCE_SUBJECT_RE = re.compile(
    r"^\s*(?:undeliverable(?: mail| message)?\s*:|undelivered mail returned to sender"
    r"|delivery status notification|mail delivery (?:failed|failure|system)|returned mail\s*:"
    r"|failure notice$|delivery failure\s*:|mail system error|unzustellbar\s*:|non remis\s*:)",
    re.I,
)
_AUTO_SUBJECT_RE = re.compile(
    r"^\s*(?:auto(?:matic)?[ _-]?(?:reply|response|respons|antwort)|auto"
    r"|out of (?:the )?office(?: reply| autoreply)?|abwesenheitsnotiz|automatische antwort"
    r"|réponse automatique|risposta automatica|respuesta automática|automatisch antwoord"
    r"|automatisk svar|autosvar|automaattinen vastaus|odpowiedź automatyczna|автоответ"
    r"|fuera de la oficina)\s*:",
    re.I,
)


def _addresses_in(value: str) -> list[str]:
    """Addresses in a raw field value, lower case: each '<...>', else the bare words with '@'."""
    out: list[str] = []
    pos = 0
    while True:
        start = value.find("<", pos)
        end = value.find(">", start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            break
        out.append(value[start + 1 : end].strip().lower())
        pos = end + 1
    if not out:
        out = [w.strip("\"'(),;").lower() for w in value.split() if "@" in w]
    return out


def classify(msg: Message, *, own_addresses: Collection[str] = ()) -> str | None:
    """Why this mail must never be read as orders nor answered, or None if it may be.

    Checked in order: not mail at all, mail from one of `own_addresses` (From, Sender or
    Return-Path: answering it would loop), delivery reports (bounces), abuse reports
    (complaints), read receipts, other reports, a null Return-Path ('<>', RFC 3834 2),
    auto-replies (Auto-Submitted other than 'no', RFC 3834, and common vacation habits)
    and list or bulk mail (List-* fields, Precedence bulk, list or junk).
    """
    headers = raw_headers(msg)
    names = {name for name, _ in headers}
    if not names & _MAIL_HEADERS:
        return NOT_MAIL
    own = {a.strip().lower() for a in own_addresses if a.strip()}
    if own:
        for name, val in headers:
            if name in ("from", "sender", "return-path") and own & set(_addresses_in(val)):
                return OWN_MAIL

    def value(name: str) -> str:
        for key, val in headers:
            if key == name:
                return val
        return ""

    parts = mime.walk(msg, into_messages=False)  # a forwarded bounce is not a bounce
    report_types = {
        mime.content_type_param(p, "report-type").lower()
        for p in parts
        if mime.content_type(p) == "multipart/report"
    }
    ctypes = {mime.content_type(p) for p in parts}
    if (
        "delivery-status" in report_types
        or ctypes & {"message/delivery-status", "message/global-delivery-status"}
        or "x-failed-recipients" in names
    ):
        return BOUNCE
    if "feedback-report" in report_types or "message/feedback-report" in ctypes:
        return COMPLAINT
    if "disposition-notification" in report_types or ctypes & {
        "message/disposition-notification",
        "message/global-disposition-notification",
    }:
        return READ_RECEIPT
    if report_types:
        return REPORT
    sender = " ".join((value("from"), value("sender"), value("return-path")))
    subject = decoded(value("subject"))
    if _DAEMON_RE.search(sender) or _BOUNCE_SUBJECT_RE.search(subject):
        return BOUNCE
    paths = [val for name, val in headers if name == "return-path"]
    if paths and paths[0].replace(" ", "") == "<>":
        return NULL_SENDER
    auto = value("auto-submitted").lower().split(";", 1)[0].split("(", 1)[0].strip()
    if auto and auto != "no":
        return AUTO_REPLY
    if names & _AUTO_HEADERS:
        return AUTO_REPLY
    if _NOREPLY_RE.search(value("from")):
        return AUTO_REPLY
    if _AUTO_SUBJECT_RE.search(subject) or value("x-precedence").lower() == "auto_reply":
        return AUTO_REPLY
    if names & _LIST_HEADERS:
        return LIST_MAIL
    if value("precedence").lower().strip() in {"bulk", "junk", "list"}:
        return LIST_MAIL
    return None
