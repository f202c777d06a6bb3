"""A small real static server for the browser check's tests (http.server in a thread, loopback only): it
serves what the web server serves for the check (views/web/check: ``/check/``, ``/check/vendor/``, ``/py/``),
a game log at ``/log.jsonl`` and, at ``/live.html``, a stand-in for the live page that exposes
``window.schocken`` (events, onEvent, standings), fed by the test. Also finds the system's Chromium.
"""

import json
import shutil
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from schocken_host.views.web import check as web_check

TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
         ".html": "text/html; charset=utf-8", ".py": "text/x-python; charset=utf-8",
         ".jsonl": "application/jsonl; charset=utf-8", ".json": "application/json"}

LIVE_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>live</title></head><body>
<section id="check"></section>
<script>
  const listeners = [];
  window.schocken = {events: [], host: null, onEvent(cb) { listeners.push(cb); },
                     standings() { return this.host; },
                     push(events, host) { for (const e of events) { this.events.push(e);
                                           for (const cb of listeners) cb(e); } this.host = host; }};
</script>
<script type="module" src="/check/check.js"></script>
</body></html>"""


def chromium():
    """The system's Chromium (Debian's ``chromium``), or None."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def micropython_report(micropython, folder, log):
    """The check's report on ``log`` from the files of /py/ laid out in ``folder`` as the browser gets them,
    run by the MicroPython unix port (what the WebAssembly port runs in the browser)."""
    for name, source in web_check.py_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(source.read_bytes())
    script = folder / "run.py"
    script.write_text("import sys, json\nsys.path.insert(0, %r)\nfrom schocken_host.table import game_check\n"
                      "print(game_check.check_lines_json(open(sys.argv[1]).read()))\n" % str(folder))
    proc = subprocess.run([micropython, str(script), str(log)], capture_output=True, text=True, timeout=60,
                          cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def routes(log=None, vendor=True):
    """URL path -> file for everything the check needs (``vendor=False``: as on a machine without npm)."""
    table = {"/check/" + p.name: p for p in web_check.CHECK_DIR.iterdir() if p.is_file()}
    vendor = web_check.vendor_dir() if vendor else None
    if vendor is not None:
        table.update({"/check/vendor/" + f: vendor / f for f in web_check.VENDOR_FILES})
    table.update({"/py/" + k: v for k, v in web_check.py_files().items()})
    if log is not None:
        table["/log.jsonl"] = Path(log)
    return table


class Server:
    def __init__(self, log=None, vendor=True):
        self.table = routes(log, vendor)
        table = self.table

        class Handler(SimpleHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?")[0]
                if path == "/live.html":
                    body, kind = LIVE_PAGE.encode(), TYPES[".html"]
                elif path in table:
                    body, kind = table[path].read_bytes(), TYPES.get(table[path].suffix, "text/plain")
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

