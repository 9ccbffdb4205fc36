"""``tw16 web``: the Starlette app (pages, the replay logs, one websocket per tab) and its server.

    /                 the table (tw16/cli/web/static/index.html + app.js): play, the agent's view
    /replay           the replay viewer (replay.html + replay.js): a log from --log-dir or a file picked
    /api/meta         the tiles' names (notation, 中文) and the scoring items' 中文 names
    /api/logs         the replay logs in --log-dir (name, bytes), newest first
    /api/logs/NAME    one log as written (JSON lines; the page draws it)
    /ws?game=ID       the game's messages (tw16.cli.web.session); without ID, or an unknown one, a new game

The server binds to loopback unless told otherwise (``--host``); uvicorn serves it. A websocket
opened by a page of another origin (another site open in the same browser) is refused.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from urllib.parse import urlparse

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tw16.cli.web.session import BadMessage, GameSession, parse_message

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 32  # games kept in memory; the oldest is dropped past this
LOG_NAME = re.compile(r"^[A-Za-z0-9._-]{1,200}\.jsonl$")


class Games:
    """The games of this server by id, each with its lock and its open tabs."""

    def __init__(self, factory):
        self.factory = factory  # () -> GameSession
        self.games: dict[str, GameSession] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.tabs: dict[str, set] = {}

    async def open(self, gid: str | None) -> GameSession:
        if gid in self.games:
            return self.games[gid]
        game = await asyncio.to_thread(self.factory)  # the agents may play the first moves
        while len(self.games) >= MAX_GAMES:
            old = next(iter(self.games))
            for d in (self.games, self.locks, self.tabs):
                d.pop(old, None)
        self.games[game.id] = game
        self.locks[game.id] = asyncio.Lock()
        self.tabs[game.id] = set()
        return game

    async def broadcast(self, game: GameSession) -> None:
        text = json.dumps(game.state(), ensure_ascii=False)
        for ws in list(self.tabs.get(game.id, ())):
            try:
                await ws.send_text(text)
            except (RuntimeError, WebSocketDisconnect):  # a tab that closed meanwhile
                self.tabs[game.id].discard(ws)


def make_app(factory, log_dir=None) -> Starlette:
    """The app; ``factory()`` makes a new game (``GameSession``)."""
    games = Games(factory)
    logs = Path(log_dir) if log_dir else None

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def replay_page(request):
        return FileResponse(STATIC / "replay.html")

    async def meta(request):
        from envs.scoring.codes import ITEM_ZH
        from tw16.cli.web.view import tile_table

        return JSONResponse({"tiles": tile_table(), "items": ITEM_ZH})

    async def list_logs(request):
        if logs is None or not logs.is_dir():
            return JSONResponse([])
        files = sorted(logs.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
        return JSONResponse([{"name": p.name, "bytes": p.stat().st_size} for p in files if LOG_NAME.match(p.name)])

    async def get_log(request):
        name = request.path_params["name"]
        if logs is None or not LOG_NAME.match(name) or not (logs / name).is_file():
            return PlainTextResponse(f"no replay log {name!r} in the log folder", status_code=404)
        return FileResponse(logs / name, media_type="text/plain; charset=utf-8")

    async def ws_endpoint(ws: WebSocket):
        origin = ws.headers.get("origin")
        if origin and urlparse(origin).netloc != ws.headers.get("host"):  # another site's page in the browser
            await ws.close(code=1008, reason="cross-origin websocket refused")
            return
        await ws.accept()
        try:
            game = await games.open(ws.query_params.get("game"))
        except Exception as e:  # noqa: BLE001 — a game that cannot be dealt (every duplicate wall played)
            await ws.send_text(json.dumps({"type": "error", "message": f"cannot start a game: {e}"}))
            await ws.close()
            return
        games.tabs[game.id].add(ws)
        async with games.locks[game.id]:
            await ws.send_text(json.dumps(game.state(), ensure_ascii=False))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await _handle(ws, game, message.get("text"))  # a binary frame: text None, refused
        except WebSocketDisconnect:
            pass
        finally:
            games.tabs.get(game.id, set()).discard(ws)

    async def _handle(ws, game: GameSession, text) -> None:
        try:
            msg = parse_message(text)
            lock = games.locks.get(game.id)
            if lock is None:
                raise BadMessage(
                    f"this game was closed (more than {MAX_GAMES} games on this server): reload for a new one"
                )
            async with lock:
                if msg["type"] == "act":
                    await asyncio.to_thread(game.act, msg["action"], msg["version"])
                elif msg["type"] == "next":
                    await asyncio.to_thread(game.next_hand)
                elif msg["type"] in ("advice", "search"):
                    reply = await asyncio.to_thread(getattr(game, msg["type"]))
                    await ws.send_text(json.dumps(reply, ensure_ascii=False))
                    return
                else:  # "state": send it again
                    await ws.send_text(json.dumps(game.state(), ensure_ascii=False))
                    return
                await games.broadcast(game)  # under the lock: no other message changes the game meanwhile
        except BadMessage as e:
            await ws.send_text(json.dumps({"type": "error", "message": str(e)}, ensure_ascii=False))

    routes = [
        Route("/", index),
        Route("/replay", replay_page),
        Route("/api/meta", meta),
        Route("/api/logs", list_logs),
        Route("/api/logs/{name}", get_log),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.games = games
    return app


def serve(app, host: str = "127.0.0.1", port: int = 8000) -> None:
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning", ws="auto")
