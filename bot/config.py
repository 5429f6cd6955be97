"""Configuration from the environment, with a ``.env`` file as fallback."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from bot.storage import (
    DEFAULT_DATABASE_URL,
    Shards,
    check_database_url,
    database_kind,
    redacted_url,
)

# The folder of the ``bot`` package; its parent is the project (README.md, .env).
PACKAGE_DIR = Path(__file__).resolve().parent
# Names the .env file to read instead (tests; setups keeping secrets elsewhere).
ENV_FILE_VARIABLE = "CARAVANSERAI_ENV_FILE"
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
# Query parameters of a database URL that hold a secret (libpq and asyncpg read both).
SECRET_QUERY_KEYS = frozenset({"password", "sslpassword"})
MASK = "***"
# The settings that are URLs: shown with their passwords masked.
URL_FIELDS = frozenset({"database_url", "api_base", "gateway_url"})

MISSING_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in.

How to get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", click "Reset Token" and copy it.
  3. Put it in a file named .env next to README.md:
         DISCORD_TOKEN=your-token-here
     (copy .env.example to start), or export DISCORD_TOKEN in your shell.
See README.md, section "Create the Discord application", for intents and the invite link.
"""


class ConfigError(Exception):
    """The configuration cannot work; the message tells the user what to do."""


MAX_ANSWER_WITHIN = 2.5  # seconds: Discord drops an interaction not answered within 3


@dataclass(frozen=True)
class Config:
    # Never in a repr (logs, tracebacks, debuggers): whoever has it controls the bot.
    token: str = field(repr=False)
    database_url: str = DEFAULT_DATABASE_URL
    guild_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    clock_check_seconds: float = 60.0  # how often due turn clocks are looked at
    # How long a turn post may take to be ready and be the move's answer before
    # "thinking…" is said and the post follows (cogs/deadline.py); 0: always say it first.
    answer_within_seconds: float = 1.5
    # No squatting, per user and server: open lobbies of one's own, tables sat at,
    # and hours after which an untouched lobby closes (0 = never).
    max_lobbies: int = 2
    max_games: int = 10
    lobby_expiry_hours: float = 48.0
    # Game packages beyond bot/registry.py's list (module paths), e.g. a game
    # developed out of tree or the test-only game "tests.nim".
    extra_games: tuple[str, ...] = ()
    # Sharding: how many shards the bot has in all, and which of them this process
    # runs (None: Discord's recommended count, every shard here).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Worker processes for board images and AI seats (0: on the event loop itself).
    cpu_workers: int = field(default_factory=lambda: default_cpu_workers())
    # Workers start warm (bot/warm_worker.py: a few boards of every game drawn
    # once, about 3 s of CPU at start-up) so the first board of each game after
    # a start is as fast as the next ones. Off: a quicker start (tests).
    warm_workers: bool = True
    # Let LOG_LEVEL=DEBUG show discord.py's gateway payloads and HTTP requests,
    # which carry the interaction tokens (answer-as-the-bot for 15 minutes).
    debug_payloads: bool = False
    # The web pages (web/): off unless WEB_PORT is set. WEB_BASE_URL is the
    # public address links in Discord use (default http://localhost:<port>);
    # WEB_HOST the address it listens on.
    web_port: int | None = None
    web_host: str = "0.0.0.0"
    web_base_url: str | None = None
    web_behind_proxy: bool = False  # trust X-Forwarded-For to tell clients apart

    def __repr__(self) -> str:
        # The dataclass's own repr, but with the URLs' passwords masked: a Config
        # may end up in a log line, a traceback or a debugger. (The token has
        # repr=False.) str() and f-strings use this too.
        shown = ", ".join(
            f"{f.name}={_shown(f.name, getattr(self, f.name))!r}" for f in fields(self) if f.repr
        )
        return f"{type(self).__name__}({shown})"

    @property
    def secrets(self) -> tuple[str, ...]:
        """What the log must never show: the token and the database's passwords
        (as written in the URL and decoded), for the log formatter to scrub."""
        found = [self.token]
        for password in url_passwords(self.database_url):
            found += [password, unquote(password)]
        return tuple(dict.fromkeys(s for s in found if s))


def _shown(name: str, value: object) -> object:
    return masked_url(value) if name in URL_FIELDS and isinstance(value, str) else value


def url_passwords(url: str) -> list[str]:
    """The passwords a URL holds: ``user:password@`` and ``?password=`` (as written)."""
    try:
        parts = urlsplit(url.strip())
        found = [] if parts.password is None else [parts.password]
    except ValueError:  # not a URL at all: nothing to find
        return []
    raw_query = [pair.partition("=") for pair in parts.query.split("&")]
    return found + [
        value for key, _, value in raw_query if unquote(key).lower() in SECRET_QUERY_KEYS
    ]


def masked_url(url: str) -> str:
    """``url`` with every password in it (``user:password@``, ``?password=``) shown
    as ``***``; anything that is not a URL comes back as it is."""
    try:
        hidden = redacted_url(url)
        parts = urlsplit(hidden)
    except ValueError:  # a malformed URL may still hold a password: show none of it
        return MASK
    query = parse_qsl(parts.query, keep_blank_values=True)
    if not any(key.lower() in SECRET_QUERY_KEYS for key, _ in query):
        return hidden
    masked = [(k, MASK if k.lower() in SECRET_QUERY_KEYS else v) for k, v in query]
    return urlunsplit(parts._replace(query=urlencode(masked, safe="*")))


def shards_of(config: Config) -> Shards | None:
    """The shards this process runs, to pick its guilds' background work; None
    when it runs every shard (SHARD_COUNT unset, or SHARD_IDS all of them)."""
    if config.shard_count is None or config.shard_ids is None:
        return None
    if len(config.shard_ids) == config.shard_count:
        return None
    return Shards(config.shard_count, frozenset(config.shard_ids))


def read_dotenv(path: Path) -> dict[str, str]:
    """Parse KEY=VALUE lines; ignores blanks, comments and ``export``."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"Cannot read {path}: {exc}") from exc
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def project_root(package_dir: Path | None = None) -> Path | None:
    """The project folder: the parent of the ``bot`` package, which holds README.md.

    None when that folder has neither pyproject.toml nor README.md, i.e. the
    package was installed elsewhere (e.g. into site-packages).
    """
    root = (PACKAGE_DIR if package_dir is None else package_dir).parent
    if (root / "pyproject.toml").is_file() or (root / "README.md").is_file():
        return root
    return None


def default_dotenv(package_dir: Path | None = None) -> Path:
    """``.env`` next to README.md whatever the current folder; else ./.env."""
    root = project_root(package_dir)
    return (root if root is not None else Path.cwd()) / ".env"


def load_config(environ: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Config:
    """Environment variables win over ``.env``; raises ConfigError on bad values.

    ``dotenv`` defaults to $CARAVANSERAI_ENV_FILE, else :func:`default_dotenv`.
    Checks what can be checked without touching anything (see :func:`check_database`
    for the database file itself).
    """
    env = read_settings(environ, dotenv)
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(MISSING_TOKEN_HELP)
    database_url = _database_url(env)
    shard_count, shard_ids = _shards(env)
    web_port, web_host, web_base_url = _web(env)
    level = env.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL={level!r} is not one of DEBUG, INFO, WARNING, ERROR.")
    return Config(
        token=token,
        database_url=database_url,
        guild_ids=_guild_ids(env.get("DISCORD_GUILD_IDS", "")),
        log_level=level,
        api_base=_url(env, "DISCORD_API_BASE", ("http://", "https://")),
        gateway_url=_url(env, "DISCORD_GATEWAY_URL", ("ws://", "wss://")),
        clock_check_seconds=_seconds(env, "CLOCK_CHECK_SECONDS", 60.0),
        answer_within_seconds=_answer_within(env),
        max_lobbies=_count(env, "MAX_LOBBIES_PER_USER", 2),
        max_games=_count(env, "MAX_GAMES_PER_USER", 10),
        lobby_expiry_hours=_hours(env.get("LOBBY_EXPIRY_HOURS", "48"), "LOBBY_EXPIRY_HOURS"),
        extra_games=tuple(m.strip() for m in env.get("EXTRA_GAMES", "").split(",") if m.strip()),
        debug_payloads=_flag(env, "DISCORD_DEBUG_PAYLOADS"),
        shard_count=shard_count,
        shard_ids=shard_ids,
        cpu_workers=_workers(env),
        warm_workers=_flag(env, "WARM_WORKERS", default=True),
        web_port=web_port,
        web_host=web_host,
        web_base_url=web_base_url,
        web_behind_proxy=_flag(env, "WEB_BEHIND_PROXY"),
    )


def _web(env: Mapping[str, str]) -> tuple[int | None, str, str | None]:
    """WEB_PORT (on when set), WEB_HOST and WEB_BASE_URL; the base URL only with
    a port, defaulting to this machine's address."""
    port_text = env.get("WEB_PORT", "").strip()
    base = _url(env, "WEB_BASE_URL", ("http://", "https://"))
    host = env.get("WEB_HOST", "").strip() or "0.0.0.0"
    if not port_text:
        if base is not None:
            raise ConfigError(
                "WEB_BASE_URL is set but WEB_PORT is not: set both to serve the web pages."
            )
        return None, host, None
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"WEB_PORT={port_text!r} is not a port number (1 to 65535).")
    port = int(port_text)
    return port, host, (base or f"http://localhost:{port}").rstrip("/")


def default_cpu_workers() -> int:
    """One worker process per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _workers(env: Mapping[str, str]) -> int:
    value = env.get("CPU_WORKERS", "").strip()
    if not value:
        return default_cpu_workers()
    if not value.isdigit() or int(value) > 256:
        raise ConfigError(
            f"CPU_WORKERS={value!r} must be a whole number of worker processes"
            " (0 = draw and think on the event loop; unset = one per core)."
        )
    return int(value)


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (shards in all) and SHARD_IDS (this process's, e.g. ``0,1`` or ``0-3``)."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all).")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 65536:
        raise ConfigError(f"SHARD_COUNT={count_text!r} must be a whole number, 1 or more.")
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    ids: set[int] = set()
    for part in ids_text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(
                f"SHARD_IDS={ids_text!r}: {part!r} is not a shard number or a range like 0-3."
            )
        low, high = int(first), int(last) if dash else int(first)
        if low > high or high >= count:
            raise ConfigError(
                f"SHARD_IDS={ids_text!r}: shards are numbered 0 to {count - 1}"
                f" (SHARD_COUNT={count})."
            )
        ids.update(range(low, high + 1))
    return count, tuple(sorted(ids))


def load_database_url(environ: Mapping[str, str] | None = None, dotenv: Path | None = None) -> str:
    """DATABASE_URL alone, from the same places as :func:`load_config`; no token needed
    (``python -m bot backup``)."""
    return _database_url(read_settings(environ, dotenv))


def read_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = None
) -> dict[str, str]:
    """``.env`` overlaid with the (non-empty) environment variables."""
    environ = os.environ if environ is None else environ
    if dotenv is None:
        chosen = environ.get(ENV_FILE_VARIABLE, "").strip()
        dotenv = Path(chosen).expanduser() if chosen else default_dotenv()
        if chosen and not dotenv.exists():
            raise ConfigError(
                f"{ENV_FILE_VARIABLE}={chosen!r}: no such file (use {os.devnull} for none)"
            )
    env = read_dotenv(dotenv)
    env.update({k: v for k, v in environ.items() if v})
    return env


def _database_url(env: Mapping[str, str]) -> str:
    database_url = env.get("DATABASE_URL", DEFAULT_DATABASE_URL).strip()
    try:
        database_kind(database_url)  # SQLite (the default) or PostgreSQL
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL: {exc}") from exc
    return database_url


def check_database(config: Config) -> str:
    """The SQLite file (or ``:memory:``) of ``config``, once sure the bot can create and write it;
    for PostgreSQL, its URL with the password hidden (the server is reached at start).

    Touches the disk but leaves nothing behind; raises ConfigError naming the file.
    """
    try:
        checked = check_database_url(config.database_url)
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL: {exc}") from exc
    return checked if database_kind(config.database_url) == "sqlite" else masked_url(checked)


def _guild_ids(value: str) -> tuple[int, ...]:
    ids = []
    for part in value.replace(" ", "").split(","):
        if not part:
            continue
        if not _SNOWFLAKE.fullmatch(part) or not 0 < int(part) < 2**64:
            raise ConfigError(
                f"DISCORD_GUILD_IDS: {part!r} is not a server id; give comma-separated"
                " numeric server ids (Discord: right-click the server > Copy Server ID)."
            )
        ids.append(int(part))
    return tuple(ids)


def _hours(value: str, name: str) -> float:
    try:
        hours = float(value)
    except ValueError:
        hours = math.nan
    if not math.isfinite(hours) or hours < 0:
        raise ConfigError(
            f"{name}={value.strip()!r} is not a number of hours (0 or more; 0 = never)."
        )
    return hours


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """A positive number of seconds."""
    value = env.get(name, str(default)).strip()
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(f"{name}={value!r} is not a number of seconds (more than 0).")
    return seconds


def _answer_within(env: Mapping[str, str]) -> float:
    """ANSWER_WITHIN_SECONDS: 0 to MAX_ANSWER_WITHIN (Discord drops an interaction
    not answered within 3 s; the answer itself takes a moment to get there)."""
    value = env.get("ANSWER_WITHIN_SECONDS", "1.5").strip()
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_ANSWER_WITHIN:
        raise ConfigError(
            f"ANSWER_WITHIN_SECONDS={value!r} is not a number of seconds from 0 to"
            f" {MAX_ANSWER_WITHIN:g}."
        )
    return seconds


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    """A positive whole number setting."""
    value = env.get(name, str(default)).strip()
    if not value.isdigit() or int(value) < 1:
        raise ConfigError(f"{name}={value!r} must be a whole number, 1 or more.")
    return int(value)


def _flag(env: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    value = env.get(name, "").strip()
    if not value:
        return default
    if value.lower() in ("0", "false", "no", "off"):
        return False
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name}={value!r} is not 1 or 0 (on or off).")


def _url(env: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    scheme, _, rest = value.partition("://")
    if f"{scheme.lower()}://" not in schemes or not rest.strip("/"):
        raise ConfigError(f"{name}={value!r} is not a URL starting with {' or '.join(schemes)}")
    return value
