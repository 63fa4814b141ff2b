// The team-display page: a pairing code until a manager pairs the screen, then its location's live
// layout. Every (re)connect starts with the full snapshot the stream sends first; later frames replace
// it whole, so nothing stale is replayed. A lost connection shows the stale state at once and is
// retried with backoff; waking the screen or coming back online reconnects for a fresh snapshot.
/* global window, document, localStorage, getComputedStyle, TextDecoder, AbortController */
'use strict';
(() => {
  const API = new URL('api/', window.location.href);
  const TOKEN_KEY = 'bop.display.screenToken';
  const PER_PAGE = 6;
  /** nothing at all (not even a keep-alive) for this long: the connection is taken as lost */
  const SILENCE_MS = 40_000;
  const $ = (id) => document.getElementById(id);

  let run = 0;
  let stream = null;
  let wakeUp = null;
  /** a reconnect asked for (the screen woke up): no backoff, no stale state for it */
  let reconnectNow = false;
  let snapshot = null;
  let lastUpdated = null;
  let rotation = 0;
  let rotationTimer = null;
  let rotationSeconds = 0;

  const wait = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (wakeUp === done) wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  const call = (method, path, body, token) =>
    fetch(new URL(path, API), {
      method,
      cache: 'no-store',
      headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(token ? { 'X-Screen-Token': token } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  function show(which) {
    $('pairing').hidden = which !== 'pairing';
    $('layout').hidden = which !== 'layout';
  }

  function setStatus(state) {
    const el = $('status');
    el.dataset.state = state;
    $('status-text').textContent = state === 'live' ? 'Live' : state === 'stale' ? 'Connection lost — numbers may be out of date' : 'Connecting…';
    document.body.dataset.state = state;
  }

  const time = (d, seconds) => d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });

  function tick() {
    $('clock').textContent = time(new Date(), false);
    $('last-updated').textContent = lastUpdated ? time(lastUpdated, true) : '—';
    if (lastUpdated) $('last-updated').dateTime = lastUpdated.toISOString();
  }

  /** A decimal string with thousands separators, its decimals kept as sent (never through a float). */
  function formatValue(v) {
    const m = /^(-?)(\d+)(\.\d+)?$/.exec(v);
    if (!m) return v;
    return `${m[1]}${m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] || ''}`;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderMetrics() {
    const box = $('metrics');
    box.replaceChildren();
    const all = snapshot.metrics;
    if (all.length === 0) {
      box.className = 'metrics';
      box.append(el('p', 'empty', 'No numbers yet'));
      return;
    }
    const pages = Math.ceil(all.length / PER_PAGE);
    const page = rotation % pages;
    const shown = all.slice(page * PER_PAGE, page * PER_PAGE + PER_PAGE);
    box.className = `metrics count-${shown.length}`;
    for (const m of shown) {
      const tile = el('div', 'metric');
      tile.dataset.metric = m.name;
      tile.append(el('span', 'label', m.label || m.name.replace(/[_.-]+/g, ' ')));
      tile.append(el('span', 'value', formatValue(m.value)));
      if (m.unit) tile.append(el('span', 'unit', m.unit));
      box.append(tile);
    }
    if (pages > 1) box.append(el('p', 'metrics-page', `${page + 1} / ${pages}`));
    fitValues();
  }

  /** Each number as large as its tile allows (up to the stylesheet's size), never cut off. */
  function fitValues() {
    for (const v of document.querySelectorAll('.metric .value')) {
      v.style.fontSize = '';
      const max = parseFloat(getComputedStyle(v).fontSize);
      const room = v.parentElement.clientWidth * 0.9;
      if (v.scrollWidth > room) v.style.fontSize = `${Math.max(12, Math.floor((max * room) / v.scrollWidth))}px`;
    }
  }

  function renderLeaderboard() {
    const board = snapshot.leaderboard;
    $('leaderboard').hidden = !board;
    if (!board) return;
    $('leaderboard-title').textContent = board.periodDays === 1 ? 'Shout-outs today' : `Shout-outs · last ${board.periodDays} days`;
    const list = $('leaderboard-list');
    list.replaceChildren();
    if (board.entries.length === 0) list.append(el('li', 'empty', 'No shout-outs yet'));
    for (const e of board.entries) {
      const li = el('li');
      li.dataset.employee = e.employeeId;
      li.append(el('span', 'rank', `#${e.rank}`), el('span', 'name', e.employeeName), el('span', 'count', String(e.count)));
      list.append(li);
    }
  }

  function renderAnnouncements() {
    const items = snapshot.announcements;
    $('announcements').hidden = !items;
    if (!items) return;
    const box = $('announcement-current');
    box.replaceChildren();
    $('announcement-count').textContent = items.length > 1 ? `${(rotation % items.length) + 1} / ${items.length}` : '';
    if (items.length === 0) {
      box.append(el('p', 'body', 'No announcements today'));
      return;
    }
    const a = items[rotation % items.length];
    box.dataset.announcement = a.id;
    box.append(el('p', 'title', a.title), el('p', 'body', a.body));
    if (a.acknowledgementRequired) box.append(el('p', 'due', a.acknowledgeBy ? `Read and confirm by ${new Date(a.acknowledgeBy).toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' })}` : 'Read and confirm in the app'));
  }

  function render() {
    if (!snapshot) return;
    $('screen-name').textContent = snapshot.screen.name || 'Team display';
    const layout = $('layout');
    layout.classList.toggle('no-board', !snapshot.leaderboard);
    layout.classList.toggle('no-news', !snapshot.announcements);
    renderMetrics();
    renderLeaderboard();
    renderAnnouncements();
    if (snapshot.config.rotationSeconds !== rotationSeconds) {
      rotationSeconds = snapshot.config.rotationSeconds;
      clearInterval(rotationTimer);
      rotationTimer = setInterval(() => {
        rotation += 1;
        renderMetrics();
        renderAnnouncements();
      }, rotationSeconds * 1000);
    }
  }

  function forget() {
    localStorage.removeItem(TOKEN_KEY);
    snapshot = null;
    lastUpdated = null;
  }

  /** Shows a pairing code until a manager pairs the screen; a code that runs out is replaced. */
  async function pair() {
    const gen = ++run;
    $('pairing-code').textContent = '…';
    $('pairing-expiry').textContent = '';
    show('pairing');
    let backoff = 1000;
    while (gen === run) {
      let p = null;
      let retryAfter = 0;
      try {
        const r = await call('POST', 'pairings', {});
        if (r.status === 201) p = await r.json();
        else retryAfter = Number(r.headers.get('Retry-After')) * 1000 || 0;
      } catch {
        // the server cannot be reached: retried below
      }
      if (gen !== run) return;
      if (!p) {
        $('pairing-code').textContent = '…';
        $('pairing-expiry').textContent = 'Cannot reach the server; retrying.';
        await wait(Math.max(retryAfter, backoff));
        backoff = Math.min(backoff * 2, 30_000);
        continue;
      }
      backoff = 1000;
      $('pairing-code').textContent = p.code;
      const expires = new Date(p.expiresAt);
      $('pairing-expiry').textContent = `This code works until ${time(expires, false)}.`;
      while (gen === run && Date.now() < expires.getTime()) {
        await wait(p.pollSeconds * 1000);
        if (gen !== run) return;
        let c = null;
        try {
          const r = await call('POST', 'pairings/claim', { secret: p.secret });
          if (r.ok) c = await r.json();
        } catch {
          continue;
        }
        if (c && c.status === 'paired') {
          localStorage.setItem(TOKEN_KEY, c.token);
          void live(c.token);
          return;
        }
        if (c && c.status === 'expired') break;
      }
    }
  }

  /** Reads server-sent events off a fetch body; answers 'unpaired' or 'ended'. */
  async function readStream(res, gen, controller) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let silence = setTimeout(() => controller.abort(), SILENCE_MS);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || gen !== run) return 'ended';
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), SILENCE_MS);
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (event === 'unpaired') return 'unpaired';
          if ((event === 'snapshot' || event === 'update') && data.length > 0) {
            snapshot = JSON.parse(data.join('\n'));
            lastUpdated = new Date();
            setStatus('live');
            render();
            tick();
          }
        }
      }
    } catch {
      return 'ended';
    } finally {
      clearTimeout(silence);
    }
  }

  /** The paired screen's live layout; reconnects by itself with backoff, back to pairing once unpaired. */
  async function live(token) {
    const gen = ++run;
    show('layout');
    setStatus('connecting');
    render();
    let attempt = 0;
    while (gen === run) {
      const controller = new AbortController();
      stream = controller;
      reconnectNow = false;
      let res = null;
      try {
        res = await fetch(new URL('stream', API), { headers: { 'X-Screen-Token': token, Accept: 'text/event-stream' }, cache: 'no-store', signal: controller.signal });
      } catch {
        res = null;
      }
      if (gen !== run) return;
      if (res && res.status === 401) {
        forget();
        void pair();
        return;
      }
      if (res && res.ok) {
        const before = lastUpdated;
        const outcome = await readStream(res, gen, controller);
        if (gen !== run) return;
        if (outcome === 'unpaired') {
          forget();
          void pair();
          return;
        }
        if (lastUpdated !== before) attempt = 0;
      } else if (res) {
        await res.body?.cancel().catch(() => undefined);
      }
      if (reconnectNow) {
        reconnectNow = false;
        continue;
      }
      setStatus('stale');
      const delay = Math.min(30_000, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
      attempt += 1;
      await wait(delay);
    }
  }

  // waking up (the screen was off or the tab hidden) or coming back online: reconnect now, for a fresh snapshot
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    if (wakeUp) wakeUp();
    else if (stream && document.body.dataset.state === 'live') {
      reconnectNow = true;
      stream.abort();
    }
  });
  window.addEventListener('online', () => {
    if (wakeUp) wakeUp();
  });

  window.addEventListener('resize', fitValues);
  setInterval(tick, 1000);
  tick();
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) void live(token);
  else void pair();
})();
