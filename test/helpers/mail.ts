// Debian's mail servers for the javascript protocol's tests and lab: dovecot (POP3 or IMAP, plain text,
// one user) and postfix (SMTP that relays nothing and delivers nothing: every message would bounce
// locally, so no test mail leaves the machine or lands in a mailbox). Each writes its configuration into
// `dir` and returns the command line that runs the server in the foreground on 127.0.0.1:`port`.
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function dovecotCommand(dir: string, protocol: 'pop3' | 'imap', port: number): string[] {
  for (const d of ['run', 'state', 'mail']) mkdirSync(path.join(dir, d), { recursive: true });
  writeFileSync(path.join(dir, 'passwd'), 'lab:{PLAIN}lab-not-a-default-3d1f\n');
  const other = protocol === 'pop3' ? 'imap' : 'pop3';
  writeFileSync(
    path.join(dir, 'dovecot.conf'),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
protocols = ${protocol}
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
log_path = ${dir}/dovecot.log
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = ${dir}/passwd
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${dir}/mail/%u
}
service ${protocol}-login {
  inet_listener ${protocol} {
    port = ${port}
  }
  inet_listener ${protocol}s {
    port = 0
  }
}
service ${other}-login {
  inet_listener ${other} {
    port = 0
  }
  inet_listener ${other}s {
    port = 0
  }
}
`,
  );
  return ['/usr/sbin/dovecot', '-F', '-c', path.join(dir, 'dovecot.conf')];
}

export function postfixCommand(dir: string, port: number): string[] {
  mkdirSync(path.join(dir, 'spool'), { recursive: true });
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const postfixUser = spawnSync('id', ['-u', 'postfix'], { encoding: 'utf8' }).stdout.trim();
  if (postfixUser) chownSync(path.join(dir, 'data'), Number(postfixUser), -1);
  writeFileSync(
    path.join(dir, 'main.cf'),
    `compatibility_level = 3.6
queue_directory = ${dir}/spool
data_directory = ${dir}/data
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.lab.test
mydestination = lab.test
mynetworks = 127.0.0.1/32
smtpd_relay_restrictions = reject_unauth_destination
local_transport = error:lab: no local delivery
default_transport = error:lab: no relaying
maillog_file_prefixes = ${dir}
maillog_file = ${dir}/maillog
smtpd_banner = $myhostname ESMTP Postfix
`,
  );
  // Debian's master.cf with its smtp service moved to the lab's address.
  const master = readFileSync('/etc/postfix/master.cf', 'utf8').replace(
    /^smtp\s+inet\s+n\s+-\s+\S+\s+-\s+-\s+smtpd$/m,
    `127.0.0.1:${port} inet n - n - - smtpd`,
  );
  writeFileSync(path.join(dir, 'master.cf'), master);
  // `postfix check` creates the queue's folders; the master then runs in the foreground and in the
  // caller's process group (-d: `postfix start-fg` would start one that leaves the group and outlives it).
  return ['sh', '-c', `/usr/sbin/postfix -c '${dir}' check && exec /usr/lib/postfix/sbin/master -d -c '${dir}'`];
}
