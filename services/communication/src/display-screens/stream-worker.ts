import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Bus, ConsumedMessage, ServiceRuntime, Work } from '@bop/shared';
import type { CommunicationConfig } from '../config';
import type { DisplayScreen } from './entities';
import { displaySnapshot, type DisplaySnapshot } from './snapshot-store';
import { pairedScreen, screensStillPaired } from './store';

/** The events that change what a screen shows. */
const TYPES = [
  'communication.display_metrics.pushed',
  'recognition.posted',
  'announcement.published',
  'communication.announcement.archived',
  'communication.display_screen.configured',
  'communication.display_screen.unpaired',
];

interface Stream {
  screenId: string;
  locationId: string;
  tokenHash: string;
  out: PassThrough;
  /** its first snapshot is being read: a change meanwhile is sent after it */
  opening: boolean;
  dirty: boolean;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The open display streams of this process. Each process listens to the communication topic in a
 * consumer group of its own (from the latest event on), so an event written by any replica reaches the
 * streams open here: a change sends the affected screens a fresh snapshot (`update`), an unpairing
 * sends `unpaired` and closes the stream. A heartbeat keeps the connection alive and re-checks every
 * stream's screen token (a missed event still revokes within one heartbeat).
 */
export class DisplayStreams {
  private readonly streams = new Set<Stream>();
  private sub: Awaited<ReturnType<Bus['subscribe']>> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly svc: ServiceRuntime<CommunicationConfig>) {}

  get open(): number {
    return this.streams.size;
  }

  async start(): Promise<void> {
    this.sub = await this.svc.bus.subscribe({
      group: `communication.displays.${randomBytes(6).toString('hex')}`,
      topics: ['communication'],
      types: TYPES,
      startAt: 'latest',
      handler: (batch) => this.apply(batch),
      onError: (err) => this.svc.log.warn({ err }, 'display streams: listener failed; retrying'),
    });
    this.timer = setInterval(() => void this.heartbeat(), this.svc.config.COMMUNICATION_DISPLAY_HEARTBEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sub?.stop();
    this.sub = null;
    this.closeStreams();
  }

  /** Ends every open stream (the service is closing: the pages reconnect, to another replica or to this one once back). */
  closeStreams(): void {
    for (const s of this.streams) s.out.end();
    this.streams.clear();
  }

  /** A stream for a paired screen: its snapshot first (read with `w`), then updates as they happen. */
  async openStream(w: Work, screen: DisplayScreen): Promise<PassThrough> {
    const out = new PassThrough();
    const s: Stream = { screenId: screen.id, locationId: screen.locationId, tokenHash: screen.tokenHash!, out, opening: true, dirty: false };
    this.streams.add(s);
    out.once('close', () => this.streams.delete(s));
    try {
      out.write(`retry: 3000\n${frame('snapshot', await displaySnapshot(w, screen))}`);
    } catch (err) {
      this.streams.delete(s);
      throw err;
    }
    s.opening = false;
    if (s.dirty) void this.refresh(s);
    return out;
  }

  private async apply(batch: ConsumedMessage[]): Promise<void> {
    const due = new Set<Stream>();
    const unpaired = new Set<string>();
    for (const m of batch) {
      const object = (m.payload.data as { object?: { id?: string; audience?: { locationIds?: string[]; onShift?: { locationId: string } | null } } } | undefined)?.object;
      // an announcement concerns the locations of its audience; none named: every location
      const audience = object?.audience ? [...(object.audience.locationIds ?? []), ...(object.audience.onShift ? [object.audience.onShift.locationId] : [])] : [];
      for (const s of this.streams) {
        if (m.type === 'communication.display_screen.unpaired') {
          if (object?.id === s.screenId) unpaired.add(s.screenId);
        } else if (m.type === 'communication.display_screen.configured') {
          if (object?.id === s.screenId) due.add(s);
        } else if (m.type.includes('announcement')) {
          if (audience.length === 0 || audience.includes(s.locationId)) due.add(s);
        } else if (m.payload.locationId === s.locationId) {
          due.add(s);
        }
      }
    }
    for (const s of this.streams) if (unpaired.has(s.screenId)) this.close(s);
    await Promise.all([...due].filter((s) => !unpaired.has(s.screenId)).map((s) => this.refresh(s)));
  }

  /** Sends the screen its snapshot as of now, or closes the stream when its token no longer works. */
  private async refresh(s: Stream): Promise<void> {
    if (s.opening) {
      s.dirty = true;
      return;
    }
    try {
      const snapshot = await this.svc.read(async (w): Promise<DisplaySnapshot | null> => {
        const screen = await pairedScreen(w, s.screenId, s.tokenHash);
        return screen ? displaySnapshot(w, screen) : null;
      });
      if (!snapshot) this.close(s);
      else if (this.streams.has(s)) s.out.write(frame('update', snapshot));
    } catch (err) {
      this.svc.log.warn({ err: (err as Error).message, screenId: s.screenId }, 'display streams: snapshot failed; the screen keeps its last one');
    }
  }

  private close(s: Stream): void {
    this.streams.delete(s);
    s.out.end(frame('unpaired', { screenId: s.screenId }));
  }

  /** Keep-alives, and the screen tokens of open streams checked again (the timer's round; tests call it). */
  async heartbeat(): Promise<void> {
    if (this.streams.size === 0) return;
    try {
      const paired = await this.svc.read((w) => screensStillPaired(w, [...new Set([...this.streams].map((s) => s.tokenHash))]));
      for (const s of this.streams) {
        if (!paired.has(s.tokenHash)) this.close(s);
        else s.out.write(': keep-alive\n\n');
      }
    } catch (err) {
      this.svc.log.warn({ err: (err as Error).message }, 'display streams: token check failed; retrying at the next heartbeat');
      for (const s of this.streams) s.out.write(': keep-alive\n\n');
    }
  }
}

const hubs = new WeakMap<object, DisplayStreams>();

/** The display streams of a running service (one per runtime: several service instances may share a process in tests). */
export function displayStreams(svc: ServiceRuntime<CommunicationConfig>): DisplayStreams {
  let hub = hubs.get(svc);
  if (!hub) {
    hub = new DisplayStreams(svc);
    hubs.set(svc, hub);
  }
  return hub;
}
