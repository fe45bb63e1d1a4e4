"""Serve a class: N app processes on loopback behind nginx, with sticky sessions, sharing one database.

    python deploy/serve_class.py --workers 3 --port 8501      (or: make serve-class WORKERS=3)

Each Streamlit process holds its sessions in memory, so every request of one browser must reach the same
process: nginx gives each new browser a cookie on its first request and hashes on it. All processes share the
runs database: the SQLite file on one machine, or PostgreSQL (DATABASE_URL) for several machines.

Every worker runs in class-server mode (AGENT_LOOP_LAB_MODE=class, deploy/class_app.py: learner identity in a
signed cookie). A worker that dies is started again on its port; meanwhile nginx sends its browsers to the
others, where a reload finds each learner's saved runs (every turn is saved as it is made).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX_CONF = """
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $cookie_lab_worker $lab_key {{ "" $request_id; default $cookie_lab_worker; }}
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    upstream lab {{
        hash $lab_key consistent;
{servers}
    }}
    server {{
        listen {host}:{port};
        # The README's import limit is 20 MB; a multipart upload adds a little around the file.
        client_max_body_size {body_mb}m;
        location / {{
            proxy_pass http://lab;
            # A worker that is down (dead, or restarting) passes its browsers to the next one at once.
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 2s;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 86400s;
            add_header Set-Cookie "lab_worker=$lab_key; Path=/; HttpOnly; SameSite=Lax" always;
            add_header X-Lab-Worker $upstream_addr always;
        }}
    }}
}}
"""


IMPORT_LIMIT_MB = 20  # export.MAX_IMPORT_BYTES, as the README promises it
BODY_LIMIT_MB = IMPORT_LIMIT_MB + 5
RESTART_PAUSE_S = 5.0  # a worker that died within this of its start waits this long before the next try


def nginx_config(tmp: Path, host: str, port: int, worker_ports: list[int]) -> str:
    # max_fails/fail_timeout: a dead worker is skipped for 5 s after one failed connection, then tried again.
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in worker_ports)
    return NGINX_CONF.format(tmp=tmp, host=host, port=port, servers=servers, body_mb=BODY_LIMIT_MB)


def start_worker(port: int, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "streamlit", "run", "deploy/class_app.py", "--server.port", str(port),
               "--server.address", "127.0.0.1", "--server.headless", "true",
               "--browser.gatherUsageStats", "false"]  # fmt: skip
    env = {**os.environ, "AGENT_LOOP_LAB_MODE": "class"}
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)


class Supervisor:
    """The workers and nginx: a worker or nginx that stops is started again; the others keep serving."""

    def __init__(self, nginx: str, tmp: Path, ports: list[int]) -> None:
        self.nginx, self.tmp, self.ports = nginx, tmp, ports
        self.workers: dict[int, subprocess.Popen] = {}
        self.started: dict[int, float] = {}
        self.proxy: subprocess.Popen | None = None

    def start_worker(self, port: int) -> None:
        self.workers[port] = start_worker(port, self.tmp / f"worker-{port}.log")
        self.started[port] = time.monotonic()

    def start_proxy(self) -> None:
        self.proxy = subprocess.Popen([self.nginx, "-c", str(self.tmp / "nginx.conf"), "-g", "daemon off;"])

    def watch_once(self) -> None:
        """Start again whatever stopped (a worker that keeps dying at once is retried every few seconds)."""
        for port, proc in list(self.workers.items()):
            code = proc.poll()
            if code is None:
                continue
            if time.monotonic() - self.started[port] < RESTART_PAUSE_S:
                continue
            print(f"worker on port {port} stopped (exit {code}); starting it again", flush=True)
            self.start_worker(port)
        if self.proxy is not None and self.proxy.poll() is not None:
            print(f"nginx stopped (exit {self.proxy.returncode}); starting it again", flush=True)
            self.start_proxy()

    def stop(self) -> None:
        procs = [*self.workers.values(), *([self.proxy] if self.proxy else [])]
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def wait_healthy(url: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{url} did not answer within {seconds:g} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="app processes (about one per core)")
    parser.add_argument("--port", type=int, default=8501, help="the port learners open")
    parser.add_argument("--host", default="0.0.0.0", help="the address nginx listens on")
    parser.add_argument("--first-worker-port", type=int, default=8601, help="workers listen on this port and up")
    parser.add_argument("--worker-ports", default="", help="or exactly these ports, comma-separated")
    args = parser.parse_args(argv)
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        raise SystemExit("nginx is not installed (Debian: apt-get install nginx)")
    tmp = Path(tempfile.mkdtemp(prefix="agent-loop-lab-class-"))
    ports = [int(p) for p in args.worker_ports.split(",") if p.strip()] or [
        args.first_worker_port + i for i in range(max(1, args.workers))
    ]
    supervisor = Supervisor(nginx, tmp, ports)
    try:
        for p in ports:
            supervisor.start_worker(p)
        for p in ports:
            wait_healthy(f"http://127.0.0.1:{p}")
        (tmp / "nginx.conf").write_text(nginx_config(tmp, args.host, args.port, ports))
        supervisor.start_proxy()
        pids = ", ".join(f"{port}:{proc.pid}" for port, proc in supervisor.workers.items())
        print(f"serving a class on http://{args.host}:{args.port} with {len(ports)} app processes", flush=True)
        print(f"workers (port:pid) {pids}; logs in {tmp}", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while True:
            time.sleep(1)
            supervisor.watch_once()
    finally:
        supervisor.stop()


if __name__ == "__main__":
    main()
