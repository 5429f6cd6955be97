"""The web pages of every server (issue 24): standings, games, boards and replays
in the browser, served by the bot process with aiohttp when WEB_PORT is set."""
