"""The mail writer against the email package: the same parts built with `email.mime` and written
by its generator give the same bytes, for random texts, names, subjects, pictures and calendars
(awkward ones included: long lines, trailing blanks, line ends of every kind, encoded-word
look-alikes, non-ASCII file names)."""

from __future__ import annotations

import base64
import hashlib
import io
import random
from datetime import datetime, timedelta, timezone
from email.charset import QP, Charset
from email.generator import BytesGenerator
from email.mime.base import MIMEBase
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, formataddr

import pytest

from pbem.mail import compose as writer
from pbem.mail.compose import MAX_NAME, MAX_SUBJECT, Picture, compose, safe_header_text
from pbem.mail.headers import is_msg_id

_QP = Charset("utf-8")
_QP.body_encoding = QP


def by_email_package(*, sender: str, sender_name: str, to: str, to_name: str, subject: str, text: str,
                     html: str | None, pictures: list[Picture], date: datetime, msg_id: str,
                     in_reply_to: str | None, auto_submitted: str, calendar: tuple[str, str] | None) -> bytes:
    """The same mail built part by part with `email.mime` and flattened by the generator."""
    body: MIMEBase = MIMEText(text, "plain", _QP)  # type: ignore[arg-type]
    if html is not None:
        html_part: MIMEBase = MIMEText(html, "html", _QP)  # type: ignore[arg-type]
        if pictures:
            related = MIMEMultipart("related")
            related.attach(html_part)
            for pic in pictures:
                image = MIMEImage(pic.png, "png")
                image["Content-ID"] = f"<{pic.cid}>"
                image.add_header("Content-Disposition", "inline", filename=pic.filename)
                related.attach(image)
            html_part = related
        alternative = MIMEMultipart("alternative")
        alternative.attach(body)
        alternative.attach(html_part)
        body = alternative
    elif pictures:
        mixed = MIMEMultipart("mixed")
        mixed.attach(body)
        for pic in pictures:
            image = MIMEImage(pic.png, "png")
            image.add_header("Content-Disposition", "inline", filename=pic.filename)
            mixed.attach(image)
        body = mixed
    if calendar is not None:
        event = MIMEText(calendar[1], "calendar", "utf-8")
        event.set_param("method", "PUBLISH")
        event.add_header("Content-Disposition", "attachment", filename=calendar[0])
        if body.get_content_type() != "multipart/mixed":
            mixed = MIMEMultipart("mixed")
            mixed.attach(body)
            body = mixed
        body.attach(event)
    to_name = safe_header_text(to_name, MAX_NAME)
    body["From"] = formataddr((safe_header_text(sender_name, MAX_NAME), sender))
    body["To"] = formataddr((to_name, to)) if to_name else to
    body["Subject"] = writer._header(safe_header_text(subject, MAX_SUBJECT))  # type: ignore[assignment]
    body["Date"] = format_datetime(date)
    body["Message-ID"] = msg_id
    body["Auto-Submitted"] = safe_header_text(auto_submitted, 40)
    body["X-Auto-Response-Suppress"] = "All"
    in_reply_to = in_reply_to.strip() if in_reply_to else None
    if in_reply_to and is_msg_id(in_reply_to):
        body["In-Reply-To"] = in_reply_to
        body["References"] = in_reply_to
    seed = hashlib.sha256(msg_id.encode()).hexdigest()[:20]
    for n, part in enumerate(p for p in body.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{seed}_{n}")
    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=False, maxheaderlen=0).flatten(body)
    return out.getvalue()


PIECES = ["a", "b", " ", "  ", "\t", "\n", "\r\n", "\r", "=", "é", "ö", "€", "😀", "x" * 80, "y" * 75, "z" * 76,
          "=?", "?=", ".", "From ", "\x00", "\x0b", "\x85", "Å", "\u2028", ";", '"', "<", ">", "@", ","]


def random_mail(rng: random.Random) -> dict[str, object]:
    def text(n: int) -> str:
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, n)))

    pictures = [Picture(rng.choice(["board.png", "b ö.png", "x;y.png", "Ånd.png", 'a"b.png']), f"c{k}@x",
                        rng.randbytes(rng.randint(0, 300)))
                for k in range(rng.choice([0, 0, 1, 2]))]
    return {
        "sender": rng.choice(["gm@x.org", "g.m@pbem.example"]), "sender_name": text(10), "to": "a@b.org",
        "to_name": text(8), "subject": text(30), "text": text(200), "html": rng.choice([None, text(200)]),
        "pictures": pictures, "date": datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=rng.randint(-5, 5)))),
        "msg_id": rng.choice(["<a.b@x.org>", "<x-1.y@pbem.invalid>"]),
        "in_reply_to": rng.choice([None, "<q@r>", text(5), " <q@r> "]),
        "auto_submitted": rng.choice(["auto-generated", "auto-replied", text(5)]),
        "calendar": rng.choice([None, ("w-turn-2.ics", text(100)), ("wé t.ics", "BEGIN\n")]),
    }


@pytest.mark.parametrize("seed", range(4))
def test_the_writer_gives_the_email_packages_bytes(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(250):
        mail = random_mail(rng)
        assert compose(**mail) == by_email_package(**mail), mail  # type: ignore[arg-type]


def test_a_picture_is_base64_of_its_own_bytes() -> None:
    png = bytes(range(256)) * 3
    raw = compose(sender="gm@x.org", sender_name="GM", to="a@b.org", subject="s", text="t", html="<p>h</p>",
                  pictures=[Picture("board.png", "board@x", png)], date=datetime(2026, 1, 1, tzinfo=timezone.utc),
                  msg_id="<a.b@x.org>")
    encoded = raw.split(b'filename="board.png"\n\n', 1)[1].split(b"\n\n--", 1)[0]
    assert base64.b64decode(encoded) == png
