"""Bot walls served with 200 or 202 are `blocked`, never content that changes a claim."""

import pytest
from sqlmodel import Session, select

from db.models import Item, Observation, WatcherState
from monitor.service import Poller, open_database
from watchers.botwall import detect_bot_wall

AWS_WAF = b"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title></title><style>body{font-family:"Arial"}</style>
<script type="text/javascript">window.awsWafCookieDomainList = [];
window.gokuProps = {"key":"AQIDAHjcYu/GjX+QlghicBgQ/7bFaQZ+m5FKCMDnO+vTbNg96AF","iv":"CgAHazE","context":"x"};</script>
<script src="https://3e3378af7cd0.5cc9f3a7.us-east-1.token.awswaf.com/3e3378af7cd0/8f0e5c4e1b2a/challenge.js"></script>
</head><body><div id="challenge-container"></div><noscript><h1>JavaScript is disabled</h1>
In order to continue, we need to verify that you're not a robot.</noscript></body></html>"""
INCAPSULA = b"""<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">
<meta name="format-detection" content="telephone=no"><meta name="viewport" content="initial-scale=1.0">
<meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1"></head><body style="margin:0px;height:100%">
<iframe id="main-iframe" src="/_Incapsula_Resource?SWUDNSAI=31&xinfo=5-1234-0%200NNN%20RT&incident_id=1-2-3&edet=12"
frameborder=0 width="100%" height="100%" marginheight="0px" marginwidth="0px">Request unsuccessful.
Incapsula incident ID: 1-2-3</iframe></body></html>"""
DATADOME = b"""<html lang="en"><head><title>openai.com</title><style>#cmsg{animation: A 1.5s;}</style></head>
<body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p>
<script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'A7','t':'fe','s':45343,'e':'7f','host':'geo.captcha-delivery.com','cookie':'x'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>"""
VERCEL = b"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Vercel Security Checkpoint</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<div class="container"><h1>We're verifying your browser</h1><p>Website owner? Click here to fix</p></div>
<script src="/.well-known/vercel/security/static/challenge.v2.min.js"></script></body></html>"""

WALLS = {
    "aws-waf": (202, AWS_WAF, {}, "AWS WAF challenge"),
    "aws-waf-header": (202, b"", {"x-amzn-waf-action": "challenge"}, "AWS WAF challenge"),
    "incapsula": (200, INCAPSULA, {}, "Incapsula challenge"),
    "datadome": (200, DATADOME, {}, "DataDome challenge"),
    "vercel": (200, VERCEL, {}, "Vercel Security Checkpoint"),
    "vercel-header": (429, b"<html></html>", {"x-vercel-mitigated": "challenge"}, "Vercel"),
}


@pytest.mark.parametrize("wall", sorted(WALLS))
@pytest.mark.parametrize("kind", ["page", "feed"])
def test_bot_walls_are_blocked_not_parsed(server, make_settings, wall, kind):
    status, body, headers, says = WALLS[wall]
    server.expect_request(f"/{wall}").respond_with_data(
        body, status=status, headers=headers, content_type="text/html"
    )
    url = server.url_for(f"/{wall}")
    extra = {"selector": "body", "claim": "jalapeno.efficiency"} if kind == "page" else {}
    settings = make_settings([{"name": "w", "kind": kind, "url": url, **extra}])
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    report = poller.poll("w")
    poller.close()
    assert report.outcome == "blocked", report.error
    assert says in report.error and url in report.error
    with Session(engine) as session:
        assert session.exec(select(Observation)).all() == []
        assert session.exec(select(Item)).all() == []
        assert session.get(WatcherState, "w").last_error_kind == "blocked"


@pytest.mark.parametrize(
    "body",
    [
        b'{"note": "token.awswaf.com/x/challenge.js"}',  # JSON is never a challenge page
        b"<html><body><p>Our pricing: $2 per 1M tokens.</p></body></html>",
        b"<html><body>" + b"<p>long</p>" * 5000 + b"_Incapsula_Resource</body></html>",
    ],
)
def test_content_is_not_taken_for_a_wall(body):
    assert detect_bot_wall(200, {"x-datadome": "protected"}, body) is None
