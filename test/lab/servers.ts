// Real server software from Debian's packages, started by the lab test itself on 127.0.0.1 ports with
// configurations written into a temporary folder. Packages are installed with apt-get when missing, with
// service start-up at install time suppressed (policy-rc.d) so nothing binds the packages' default ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, copyFileSync, chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface LabServer {
  name: string;
  url: string;
  stop(): Promise<void>;
}

interface Spec {
  name: string;
  packages: string[];
  binary: string;
  /** Writes its files into `dir` and returns the command line to run in the foreground. */
  prepare(dir: string, port: number, ctx: Record<string, number>): string[];
}

const APACHE_MODS = '/usr/lib/apache2/modules';

export const SPECS: Spec[] = [
  {
    name: 'nginx',
    packages: ['nginx-light'],
    binary: '/usr/sbin/nginx',
    prepare(dir, port) {
      writeFileSync(
        path.join(dir, 'nginx.conf'),
        `
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include /etc/nginx/mime.types;
  server {
    listen 127.0.0.1:${port};
    root /usr/share/nginx/html;
    location = /nginx_status { stub_status; }
  }
}
`,
      );
      return ['/usr/sbin/nginx', '-c', path.join(dir, 'nginx.conf'), '-p', dir];
    },
  },
  {
    name: 'apache2',
    packages: ['apache2', 'libapache2-mod-php'],
    binary: '/usr/sbin/apache2',
    prepare(dir, port) {
      const www = path.join(dir, 'www');
      mkdirSync(www, { recursive: true });
      copyFileSync('/usr/share/apache2/default-site/index.html', path.join(www, 'index.html'));
      writeFileSync(path.join(www, 'phpinfo.php'), '<?php phpinfo(); ?>\n');
      mkdirSync(path.join(www, 'files'));
      writeFileSync(path.join(www, 'files', 'notes.txt'), 'lab\n');
      chmodSync(dir, 0o755);
      const mods = ['mpm_prefork', 'authz_core', 'dir', 'mime', 'status', 'info', 'autoindex', 'alias'];
      writeFileSync(
        path.join(dir, 'apache2.conf'),
        `
${mods.map((m) => `LoadModule ${m}_module ${APACHE_MODS}/mod_${m}.so`).join('\n')}
LoadModule php_module ${APACHE_MODS}/libphp8.2.so
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/apache2.pid
DefaultRuntimeDir ${dir}
ErrorLog ${dir}/error.log
User www-data
Group www-data
TypesConfig /etc/mime.types
DocumentRoot ${www}
DirectoryIndex index.html index.php
ExtendedStatus On
<Directory ${www}>
  Options Indexes
  Require all granted
</Directory>
<FilesMatch "\\.php$">
  SetHandler application/x-httpd-php
</FilesMatch>
<Location /server-status>
  SetHandler server-status
</Location>
<Location /server-info>
  SetHandler server-info
</Location>
`,
      );
      return ['/usr/sbin/apache2', '-f', path.join(dir, 'apache2.conf'), '-DFOREGROUND'];
    },
  },
  {
    name: 'lighttpd',
    packages: ['lighttpd'],
    binary: '/usr/sbin/lighttpd',
    prepare(dir, port) {
      // Its own document root: /var/www/html may hold another package's default page.
      const www = path.join(dir, 'www');
      mkdirSync(www, { recursive: true });
      writeFileSync(
        path.join(www, 'index.html'),
        '<html><head><title>Lab</title></head><body>static files</body></html>\n',
      );
      writeFileSync(
        path.join(dir, 'lighttpd.conf'),
        `
server.modules = ("mod_status", "mod_indexfile", "mod_staticfile")
server.document-root = "${www}"
server.bind = "127.0.0.1"
server.port = ${port}
server.pid-file = "${dir}/lighttpd.pid"
server.errorlog = "${dir}/error.log"
index-file.names = ("index.lighttpd.html", "index.html")
status.status-url = "/server-status"
status.config-url = "/server-config"
mimetype.assign = (".html" => "text/html")
`,
      );
      return ['/usr/sbin/lighttpd', '-D', '-f', path.join(dir, 'lighttpd.conf')];
    },
  },
  {
    name: 'prometheus',
    packages: ['prometheus'],
    binary: '/usr/bin/prometheus',
    prepare(dir, port) {
      // Scrapes itself, the configuration every Prometheus install starts from.
      writeFileSync(
        path.join(dir, 'prometheus.yml'),
        `global:\n  scrape_interval: 1h\nscrape_configs:\n  - job_name: prometheus\n    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`,
      );
      return [
        '/usr/bin/prometheus',
        `--config.file=${dir}/prometheus.yml`,
        `--storage.tsdb.path=${dir}/data`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--web.enable-admin-api',
      ];
    },
  },
  {
    name: 'node-exporter',
    packages: ['prometheus-node-exporter'],
    binary: '/usr/bin/prometheus-node-exporter',
    prepare(_dir, port) {
      return ['/usr/bin/prometheus-node-exporter', `--web.listen-address=127.0.0.1:${port}`];
    },
  },
  {
    name: 'alertmanager',
    packages: ['prometheus-alertmanager'],
    binary: '/usr/bin/prometheus-alertmanager',
    prepare(dir, port) {
      writeFileSync(path.join(dir, 'alertmanager.yml'), `route:\n  receiver: none\nreceivers:\n  - name: none\n`);
      return [
        '/usr/bin/prometheus-alertmanager',
        `--config.file=${dir}/alertmanager.yml`,
        `--storage.path=${dir}/data`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--cluster.listen-address=',
      ];
    },
  },
  {
    name: 'pushgateway',
    packages: ['prometheus-pushgateway'],
    binary: '/usr/bin/prometheus-pushgateway',
    prepare(_dir, port) {
      return ['/usr/bin/prometheus-pushgateway', `--web.listen-address=127.0.0.1:${port}`];
    },
  },
  {
    name: 'haproxy',
    packages: ['haproxy'],
    binary: '/usr/sbin/haproxy',
    prepare(dir, port) {
      writeFileSync(
        path.join(dir, 'haproxy.cfg'),
        `
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
frontend stats
  bind 127.0.0.1:${port}
  stats enable
  stats uri /haproxy?stats
  stats refresh 30s
`,
      );
      return ['/usr/sbin/haproxy', '-db', '-f', path.join(dir, 'haproxy.cfg')];
    },
  },
  {
    name: 'varnish',
    packages: ['varnish'],
    binary: '/usr/sbin/varnishd',
    prepare(dir, port, ctx) {
      // In front of the lab's nginx, as varnish is deployed.
      return [
        '/usr/sbin/varnishd',
        '-F',
        '-a',
        `127.0.0.1:${port}`,
        '-b',
        `127.0.0.1:${ctx.nginx}`,
        '-n',
        path.join(dir, 'varnish'),
        '-T',
        'none',
        '-s',
        'malloc,32m',
      ];
    },
  },
  {
    name: 'tinyproxy',
    packages: ['tinyproxy'],
    binary: '/usr/bin/tinyproxy',
    prepare(dir, port) {
      writeFileSync(
        path.join(dir, 'tinyproxy.conf'),
        `Port ${port}\nListen 127.0.0.1\nTimeout 10\nPidFile "${dir}/tinyproxy.pid"\nLogLevel Critical\nMaxClients 50\nAllow 127.0.0.1\n`,
      );
      return ['/usr/bin/tinyproxy', '-d', '-c', path.join(dir, 'tinyproxy.conf')];
    },
  },
  {
    name: 'syncthing',
    packages: ['syncthing'],
    binary: '/usr/bin/syncthing',
    prepare(dir, port) {
      return [
        '/usr/bin/syncthing',
        'serve',
        '--no-browser',
        '--no-restart',
        '--no-upgrade',
        `--gui-address=http://127.0.0.1:${port}`,
        `--home=${dir}/home`,
      ];
    },
  },
];

/** Installs the packages of the specs whose binaries are missing (one apt-get call). */
export function installMissing(specs: Spec[]): void {
  const missing = specs.filter((s) => !existsSync(s.binary)).flatMap((s) => s.packages);
  if (missing.length === 0) return;
  const policy = '/usr/sbin/policy-rc.d';
  const hadPolicy = existsSync(policy);
  if (!hadPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let r = spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { env, stdio: 'inherit' });
    if (r.status !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { env, stdio: 'inherit' });
      r = spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { env, stdio: 'inherit' });
    }
    if (r.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed`);
  } finally {
    if (!hadPolicy) rmSync(policy, { force: true });
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, proc: ChildProcess, name: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`${name} exited (${proc.exitCode}) before listening`);
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1');
      c.once('connect', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} did not listen on ${port} within ${ms} ms`);
}

/** Starts every spec in order (varnish needs nginx's port) and returns them by name. */
export async function startAll(root: string, specs: Spec[] = SPECS): Promise<Map<string, LabServer>> {
  const ports: Record<string, number> = {};
  const out = new Map<string, LabServer>();
  // Servers that drop privileges (apache2 runs its children as www-data) must reach their files.
  chmodSync(root, 0o755);
  try {
    for (const spec of specs) {
      const dir = path.join(root, spec.name);
      mkdirSync(dir, { recursive: true });
      const port = await freePort();
      ports[spec.name] = port;
      const [cmd, ...args] = spec.prepare(dir, port, ports);
      // Its own process group: apache2 signals its whole group when it stops, and a group kill also
      // reaches the workers a server forks.
      const proc = spawn(cmd!, args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        cwd: dir,
        env: { ...process.env, HOME: dir },
        detached: true,
      });
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(-proc.pid!, sig);
        } catch {
          /* already gone */
        }
      };
      let stderr = '';
      proc.stderr!.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000);
      });
      try {
        await waitForPort(port, proc, spec.name);
      } catch (err) {
        signal('SIGKILL');
        throw new Error(`${(err as Error).message}\n${stderr}`);
      }
      out.set(spec.name, {
        name: spec.name,
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((resolve) => {
            if (proc.exitCode !== null) return resolve();
            proc.once('exit', () => resolve());
            signal('SIGTERM');
            setTimeout(() => signal('SIGKILL'), 5000).unref();
          }),
      });
    }
  } catch (err) {
    await Promise.all([...out.values()].map((s) => s.stop()));
    throw err;
  }
  return out;
}
