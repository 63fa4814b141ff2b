/**
 * Start failures the runtime explains in one plain line: what failed and what to do (the setting
 * that moves a port, the data directory to fix), instead of a stack.
 */

/** A start failure whose message is the one line to print. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

interface SystemError extends Error {
  code?: string;
  port?: number;
  address?: string;
  syscall?: string;
  path?: string;
}

/** The setting that chose a port the runtime listens on, or null when no setting names it. */
function portSetting(port: number, env: Record<string, string | undefined>): string | null {
  if (env.PORT !== undefined && Number(env.PORT) === port) return 'PORT';
  for (const [key, value] of Object.entries(env)) if (key.startsWith('SERVICE_PORT_') && value !== undefined && Number(value) === port) return key;
  if (env.PORT === undefined && port === 8080) return 'PORT';
  return null;
}

/** The one line that explains a failed start (`err` as thrown by startAll). */
export function describeStartFailure(err: unknown, env: Record<string, string | undefined> = process.env): string {
  if (err instanceof StartupError) return err.message;
  const e = err as SystemError;
  if (e && e.code === 'EADDRINUSE' && typeof e.port === 'number') {
    const setting = portSetting(e.port, env);
    const where = `${e.address ?? '127.0.0.1'}:${e.port}`;
    if (setting === 'PORT') return `port ${e.port} (PORT) is already in use on ${e.address ?? 'this host'}: another program or another instance listens there; set PORT to a free port (e.g. PORT=${e.port + 1}).`;
    if (setting) return `port ${e.port} (${setting}) is already in use on ${where}: set ${setting} to a free port, or remove it to let the runtime pick one.`;
    return `port ${where} is already in use: set SERVICE_PORTS=auto (the default) so the services take free ports.`;
  }
  if (e && (e.code === 'EACCES' || e.code === 'EPERM') && e.syscall === 'listen') {
    return `the runtime may not listen on ${e.address ?? ''}:${e.port ?? ''} (${e.code}): set PORT to a port above 1023, or HOST to an address of this machine.`;
  }
  if (e && e.code === 'EADDRNOTAVAIL') return `the address ${e.address ?? ''} is not one of this machine's (EADDRNOTAVAIL): set HOST to a local address, e.g. HOST=127.0.0.1.`;
  const message = (e instanceof Error ? e.message : String(err)).split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
  if (e instanceof Error && e.name === 'ConfigError') return `${message} (fix the setting named)`;
  return `${message} (set LOG_LEVEL=debug for details)`;
}
