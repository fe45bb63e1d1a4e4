"""Serve a class: N app processes on loopback behind nginx, with sticky sessions, sharing one database.

    python deploy/serve_class.py --workers 3 --port 8501      (or: make serve-class WORKERS=3)

Each Streamlit process holds its sessions in memory, so every request of one browser must reach the same
process: nginx gives each new browser a cookie on its first request and hashes on it. All processes share the
runs database: the SQLite file on one machine, or PostgreSQL (DATABASE_URL) for several machines.
"""

from __future__ import annotations

import argparse
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
        location / {{
            proxy_pass http://lab;
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


def nginx_config(tmp: Path, host: str, port: int, worker_ports: list[int]) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in worker_ports)
    return NGINX_CONF.format(tmp=tmp, host=host, port=port, servers=servers)


def start_worker(port: int, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
               "--server.address", "127.0.0.1", "--server.headless", "true",
               "--browser.gatherUsageStats", "false"]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)


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
    workers = [start_worker(p, tmp / f"worker-{p}.log") for p in ports]
    procs = list(workers)
    try:
        for p in ports:
            wait_healthy(f"http://127.0.0.1:{p}")
        (tmp / "nginx.conf").write_text(nginx_config(tmp, args.host, args.port, ports))
        procs.append(subprocess.Popen([nginx, "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"]))
        print(f"serving a class on http://{args.host}:{args.port} with {len(ports)} app processes", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while all(p.poll() is None for p in procs):
            time.sleep(1)
        raise SystemExit("a process of the class server stopped; see the logs in " + str(tmp))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
