import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 628:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  a: () => (/* binding */ runPost)
});

;// CONCATENATED MODULE: ./src/gpu/nvidia-smi.ts
/**
 * The GPUs and what holds their memory, from `nvidia-smi`: its CSV queries (formats as seen on an H200; see the
 * research notes), run within one time limit for the whole snapshot, ended at once by a signal (a cancelled job),
 * its output read up to 1 MiB. Where nvidia-smi is missing, fails, hangs, floods or is cancelled the answer is a
 * structured `unavailable`, never an error: a machine without a GPU is no reason to fail a wait.
 */
const GPU_QUERY = ['--query-gpu=index,uuid,name,memory.used,memory.total', '--format=csv,noheader,nounits'];
const APPS_QUERY = ['--query-compute-apps=pid,process_name,used_memory,gpu_uuid', '--format=csv,noheader,nounits'];
/** What nvidia-smi may write per query: an H200 node's answer is a few hundred bytes; more is not its answer. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** The GPUs and the compute processes on them, in two calls of nvidia-smi, both within `timeoutMs`. */
async function gpuSnapshot(options = {}) {
    const until = performance.now() + (options.timeoutMs ?? 10_000);
    const left = () => Math.max(0, until - performance.now());
    const gpuRun = await runNvidiaSmi(GPU_QUERY, options, left());
    if (gpuRun.kind !== 'ok')
        return gpuRun;
    const appsRun = await runNvidiaSmi(APPS_QUERY, options, left());
    if (appsRun.kind !== 'ok')
        return appsRun;
    const gpus = parseGpus(gpuRun.stdout);
    const apps = parseApps(appsRun.stdout);
    if (gpus === undefined || apps === undefined)
        return {
            kind: 'unavailable',
            why: 'unreadable',
            detail: firstLine(gpus === undefined ? gpuRun.stdout : appsRun.stdout)
        };
    return { kind: 'available', gpus, apps };
}
/**
 * One query. nvidia-smi runs in a process group of its own, so that a timeout, a flood or a cancel kills it and
 * anything it started (a wrapper script's children would otherwise hold its output open); the answer is settled
 * then, without waiting for the pipes to close.
 */
function runNvidiaSmi(args, { env = process.env, command = 'nvidia-smi', signal }, timeoutMs) {
    return new Promise((resolve) => {
        if (signal?.aborted)
            return resolve({ kind: 'unavailable', why: 'cancelled' });
        if (timeoutMs <= 0)
            return resolve({ kind: 'unavailable', why: 'timeout' });
        // node:child_process is loaded only when nvidia-smi is asked: a wait without a GPU check starts without it.
        const { spawn } = process.getBuiltinModule('node:child_process');
        const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        const out = new BoundedText();
        const err = new BoundedText();
        let settled = false;
        const settle = (run) => {
            if (settled)
                return;
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            // the group, even once nvidia-smi itself has exited: what it started may still hold the pipes
            killGroup(child.pid);
            child.stdout.destroy();
            child.stderr.destroy();
            resolve(run);
        };
        const over = () => settle({ kind: 'unavailable', why: 'unreadable', detail: 'output over 1 MiB' });
        child.stdout.on('data', (d) => out.add(d) || over());
        child.stderr.on('data', (d) => err.add(d) || over());
        const timer = setTimeout(() => settle({ kind: 'unavailable', why: 'timeout' }), timeoutMs);
        const onAbort = () => settle({ kind: 'unavailable', why: 'cancelled' });
        signal?.addEventListener('abort', onAbort, { once: true });
        child.once('error', (e) => settle(e.code === 'ENOENT'
            ? { kind: 'unavailable', why: 'not-found' }
            : { kind: 'unavailable', why: 'failed', detail: e.message }));
        child.once('close', (code) => {
            const stdout = out.text();
            // nvidia-smi prints its own failure ("NVIDIA-SMI has failed because it couldn't communicate \u2026") on stdout
            if (code === 0)
                settle({ kind: 'ok', stdout });
            else
                settle({ kind: 'unavailable', why: 'failed', detail: firstLine(stdout.trim() === '' ? err.text() : stdout) });
        });
    });
}
/** Output kept as chunks up to MAX_OUTPUT_BYTES: a flood of hundreds of MB never becomes one string. */
class BoundedText {
    chunks = [];
    bytes = 0;
    /** False once the output is over the bound. */
    add(chunk) {
        this.bytes += chunk.length;
        if (this.bytes > MAX_OUTPUT_BYTES)
            return false;
        this.chunks.push(chunk);
        return true;
    }
    text() {
        return Buffer.concat(this.chunks).toString('utf8');
    }
}
function killGroup(pid) {
    if (pid === undefined)
        return;
    try {
        process.kill(-pid, 'SIGKILL');
    }
    catch {
        // gone already
    }
}
const firstLine = (text) => text.trim().split('\n', 1)[0].slice(0, 300);
/** `[N/A]` and the like are no number. */
const mib = (text) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);
/** The lines of a `noheader` CSV answer, split into fields; undefined unless each has `fields` and starts with a number. */
function csvRows(csv, fields) {
    const rows = csv
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.split(',').map((x) => x.trim()));
    return rows.every((f) => f.length >= fields && /^\d+$/.test(f[0])) ? rows : undefined;
}
/** `0, GPU-24f1\u2026, NVIDIA H200, 21099, 143771` per line; the name (which may hold a comma) is what lies between. */
function parseGpus(csv) {
    return csvRows(csv, 5)?.map((f) => ({
        index: Number(f[0]),
        uuid: f[1],
        name: f.slice(2, -2).join(','),
        memoryUsedMiB: mib(f[f.length - 2]),
        memoryTotalMiB: mib(f[f.length - 1])
    }));
}
/** `430, python3, 21090, GPU-24f1\u2026` per line (nothing at all when no process computes). */
function parseApps(csv) {
    return csvRows(csv, 4)?.map((f) => ({
        pid: Number(f[0]),
        processName: f.slice(1, -2).join(','),
        usedMiB: mib(f[f.length - 2]),
        gpuUuid: f[f.length - 1]
    }));
}
/**
 * The GPUs `CUDA_VISIBLE_DEVICES` names (indices, UUIDs or UUID prefixes such as `GPU-24f17f1b`), in its order;
 * all of them when it is unset. Like CUDA, the list ends at the first entry that names no GPU (`-1`, a MIG id
 * nvidia-smi does not list here), and an empty value hides every GPU. `unmatched` is that entry, if any.
 */
function visibleGpus(gpus, cudaVisibleDevices) {
    if (cudaVisibleDevices === undefined)
        return { gpus: [...gpus] };
    const chosen = [];
    for (const entry of cudaVisibleDevices.split(',').map((e) => e.trim())) {
        if (entry === '')
            break;
        const gpu = /^\d+$/.test(entry)
            ? gpus.find((g) => g.index === Number(entry))
            : gpus.find((g) => g.uuid.toLowerCase().startsWith(entry.toLowerCase()) && /^gpu-/i.test(entry));
        if (gpu === undefined)
            return { gpus: chosen, unmatched: entry };
        if (!chosen.includes(gpu))
            chosen.push(gpu);
    }
    return { gpus: chosen };
}
/** The compute processes on the GPUs `CUDA_VISIBLE_DEVICES` names (all GPUs when unset). */
function appsOnVisibleGpus(snapshot, cudaVisibleDevices) {
    const uuids = new Set(visibleGpus(snapshot.gpus, cudaVisibleDevices).gpus.map((g) => g.uuid));
    return snapshot.apps.filter((a) => uuids.has(a.gpuUuid));
}
/** The GPU memory held by any of `pids` (a server and its workers). */
function memoryHeldBy(snapshot, pids) {
    const apps = snapshot.apps.filter((a) => pids.has(a.pid));
    return { mib: apps.reduce((sum, a) => sum + (a.usedMiB ?? 0), 0), apps };
}

;// CONCATENATED MODULE: ./src/runtime/text.ts
/**
 * Text helpers for the words of others (a server's body, an input's value): one line, no control characters, a
 * bounded length, and never a view that keeps the whole text it was cut from alive.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
/**
 * The one control-character rule (C0 and DEL): whether `text` holds one other than those `allowed` (a tab in a
 * value; a script's tab and line breaks).
 */
function hasControlChars(text, allowed = '\t') {
    for (const [c] of text.matchAll(CONTROL))
        if (!allowed.includes(c))
            return true;
    return false;
}
/** `text` with each run of control characters turned into one space, for a one-line quote of a server's words. */
const controlToSpace = (text) => text.replace(CONTROL_RUN, ' ');
const CONTROL_RUN = new RegExp(`${CONTROL.source}+`, 'g');
/** Shows input text safely in a message: control characters escaped, length capped. */
function printable(text, max = 80) {
    const shown = JSON.stringify(text)
        .slice(1, -1)
        .replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return shown.length > max ? `${shown.slice(0, max)}\u2026` : shown;
}
/** The server's words on one line, at most `max` characters. */
function clip(text, max = 120) {
    // cut before cleaning: a body can be 1 MiB on one line, and a copy of it per probe adds up
    const clean = controlToSpace(text.slice(0, 2 * max));
    return detached(clean.length > max ? `${clean.slice(0, max)}\u2026` : clean);
}
/**
 * A copy of a short string that does not hold on to the string it was cut from. V8 makes a slice of 13
 * characters or more a view of its parent: an excerpt or a summary kept from a 1 MiB body would keep the whole
 * body alive for as long as the answer is kept (the last answer of each target of a fleet, the timeline).
 */
function detached(text) {
    return JSON.parse(JSON.stringify(text));
}
/**
 * Says what a body says in a few words: a JSON error's message (from `json`, the body already parsed), an HTML
 * page's title, or its first line.
 */
function describeBody(body, contentType, json) {
    const text = body.trimStart().slice(0, 8192).trimEnd();
    if (text === '')
        return '';
    const said = jsonMessage(json);
    if (said !== undefined)
        return clip(said);
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text.slice(0, 4096));
    if (title)
        return clip(title[1].trim());
    if (/html/i.test(contentType) || text.startsWith('<'))
        return '(an HTML page)';
    return clip(text.split(/\r?\n/, 1)[0]);
}
function jsonMessage(json) {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
        return undefined;
    const o = json;
    for (const key of ['error', 'message', 'detail', 'reason', 'status']) {
        const v = o[key];
        if (typeof v === 'string' && v !== '')
            return v;
        if (typeof v === 'object' && v !== null) {
            const inner = jsonMessage(v);
            if (inner !== undefined)
                return inner;
        }
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/report/markdown.ts
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
/**
 * Text a server or a log wrote, as literal Markdown (before `cell`): no HTML (`<img>`), no emphasis, no code span,
 * no link or image, no autolink (`https://\u2026`, `www.\u2026`).
 */
function mdText(text) {
    return text
        .replace(/[\\`*_~[\]]/g, '\\$&')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/:\/\//g, ':\\/\\/')
        .replace(/\b(www)\./gi, '$1\\.');
}
/** Text as code: a code span when it holds no backtick (nothing renders inside one), else as `mdText`. */
const code = (text) => (text.includes('`') ? mdText(text) : `\`${text}\``);
/** The title of a server log's last lines (the log, both job summaries). */
function logTailTitle(tail, file = 'the log') {
    return tail.length === 0 ? `${file} is empty` : `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${file}`;
}
/** A code block whose fence no line of the text can close. */
function fenced(text) {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}\n${text}\n${fence}`;
}

;// CONCATENATED MODULE: ./src/report/lifecycle-report.ts


const list = (items) => items.map((i) => `"${i}"`).join(', ');
/** A `model` several listed ids contain, none of them exactly: stable words, so the summary is stable. */
function ambiguousModelText(model, candidates, count = candidates.length) {
    const more = count > candidates.length ? ` and ${count - candidates.length} more` : '';
    return {
        summary: `"${model}" fits ${count} listed models`,
        detail: `"${model}" fits ${count} listed models and is none of them exactly: ${list(candidates)}${more}. ` +
            'Give the exact id as "model" (an id ending with /<model> or equal to it ignoring case also counts as exact)'
    };
}
/** A `model` matched by a listed id that only contains it (`model-match: partial`): it may be another version. */
const partialMatchText = (model, id) => `"${model}" matched the listed id "${id}" only partly (the id contains it): make sure it is the model meant, ` +
    'give the exact id as "model", or set "model-match: exact" to refuse partial matches';
/** A model the server lists but loads only when asked (llama.cpp's router mode, LM Studio). */
const unloadedModelText = (id) => `"${id}" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)`;
const s1 = (seconds) => `${seconds.toFixed(1)}s`;
const pidList = (pids) => `${pids.length === 1 ? 'pid' : 'pids'} ${pids.join(', ')}`;
/** How a server was stopped (`wait-for-model stop`, the job-end step): what was sent, how it exited, its GPU memory. */
function stopLines(r) {
    if (r.outcome === 'refused')
        return [{ level: 'warning', text: refusedText(r.pid, r.refused) }];
    const lines = [];
    if (r.notOurs !== undefined)
        lines.push({ level: 'info', text: notOursText(r.pid, r.notOurs) });
    if (r.spared !== undefined)
        lines.push({ level: 'warning', text: `Left alone, as no stop may signal them: ${pidList(r.spared)}.` });
    if (r.outcome === 'not-running')
        return r.notOurs === undefined
            ? [...lines, { level: 'info', text: `Process ${r.pid} is not running: nothing to stop.` }]
            : lines;
    const what = r.scope === 'group'
        ? `the server's process group ${r.pid} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
        : r.notOurs === undefined
            ? `the server ${r.pid} and its child processes (${r.pids.length} in all)`
            : `the server's processes that carry its run marker (${r.pids.length} in all)`;
    const how = r.exitCode !== undefined && r.exitCode !== null
        ? `, exit code ${r.exitCode}`
        : r.exitSignal
            ? `, ended by ${r.exitSignal}`
            : '';
    if (r.escaped !== undefined && r.notOurs === undefined)
        lines.push({
            level: 'info',
            text: `Also the server's processes that had left its process group (they carry its run marker): ${pidList(r.escaped)}.`
        });
    if (r.outcome === 'exited') {
        lines.push({
            level: 'info',
            text: r.signal === 'SIGKILL'
                ? r.cancelled
                    ? `Stopped ${what}: SIGTERM, then SIGKILL at once (the stop was cancelled); gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
                    : `Stopped ${what}: it did not exit after SIGTERM, so SIGKILL; gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
                : `Stopped ${what}: SIGTERM, gone after ${s1(r.secondsToExit ?? 0)}${how}.`
        });
    }
    else {
        lines.push({
            level: 'warning',
            text: `Could not stop ${what}: still running after SIGTERM and SIGKILL: ${pidList(r.survivors ?? [])}.`
        });
    }
    const g = r.gpu;
    if (g.kind === 'released')
        lines.push({
            level: 'info',
            text: `Its GPU memory (${g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show'}) was released ${s1(g.seconds)} after SIGTERM.`
        });
    else if (g.kind === 'held')
        lines.push({
            level: 'warning',
            text: `Its GPU memory was not released: ${g.mib > 0 ? `${g.heldMib} of ${g.mib} MiB` : 'an amount nvidia-smi does not show'} still held ${s1(g.seconds)} after SIGTERM` +
                `${g.pids.length ? ` (${pidList(g.pids)})` : ''}; the next job on this machine may run out of GPU memory.`
        });
    else if (g.kind === 'none')
        lines.push({ level: 'debug', text: 'Its processes held no GPU memory.' });
    else
        lines.push({ level: 'debug', text: `GPU memory not looked at (nvidia-smi: ${g.why}).` });
    return lines;
}
const SPARED_WORDS = {
    self: "is this step's own process",
    ancestor: "is an ancestor of this step's process (the runner's step, or the runner)",
    init: 'is pid 1 (init)',
    runner: "is one of the runner's own processes",
    'group-leader': 'leads the process group this step (or the runner) runs in'
};
/** The pid to stop is one no stop may signal. */
const refusedText = (pid, why) => `Refused to stop process ${pid}: it ${SPARED_WORDS[why ?? 'self']}. Nothing was signalled.`;
/** The pid the state names is no longer the server's. */
function notOursText(pid, id) {
    const why = id.kind === 'rebooted'
        ? 'the machine has booted since the server started'
        : id.kind === 'unchecked'
            ? 'there is no start time to check it by (no /proc where it started, or here)'
            : `it started at ${id.startTicks ?? '?'} clock ticks after boot, the server at ${id.expectedTicks}: the server has exited and its pid was reused`;
    return `Process ${pid} is not the server this job started (${why}): left alone, with its process group.`;
}
/** The job-end state holds a value the main step did not write. */
const refusedStateText = (e) => `Refused the job-end state, and signalled nothing: STATE_${e.stateName} is "${printable(e.value).slice(0, 80)}", ` +
    `not ${e.form} as the main step writes it.`;
/** `process 1234 (python -m vllm \u2026)`, or what can be said of a socket whose holder this user cannot see. */
function listenerText(l) {
    if (l.holders.length === 0)
        return `a process this user cannot see (listening on ${l.address}, socket inode ${l.inode})`;
    return l.holders.map((h) => `process ${h.pid}${h.command ? ` (${h.command})` : ''}`).join(' and ');
}
const holderPids = (listeners) => [
    ...new Set(listeners.flatMap((l) => l.holders.map((h) => h.pid)))
];
/** Before `start`: something already listens on the URL's port (a server an earlier job left behind). */
function portBusyText(owner) {
    const pids = holderPids(owner.listeners);
    return (`Port ${owner.port} is already in use by ${owner.listeners.map(listenerText).join('; ')}: the server "start" ` +
        'would launch could not listen there, and the one already there would answer the gate. ' +
        (pids.length
            ? `Stop it first (wait-for-model stop --pid ${pids[0]}, or kill ${pids.join(' ')}), `
            : 'Stop it first, ') +
        'or give the new server another port');
}
/** With `start` or `pid`: the port answers, but from a process that is not the watched server or its children. */
function wrongServerText(o, watchedPid, redirect) {
    return (`${redirect === undefined ? '' : `${redirectText(redirect)}: `}Port ${o.port} is answered by ${o.listeners.map(listenerText).join('; ')}, not by the server being watched ` +
        `(pid ${watchedPid}) or its child processes: an earlier server still holds the port, or the watched one ` +
        'listens elsewhere. Its answers say nothing about the server being waited for');
}
/** The origins only: a Location's path and query are the server's words, of any length. */
const redirectText = ({ from, to }) => `${from.origin} redirected to ${to.origin}`;
/** With `start` or `pid`: a local endpoint redirected to another machine, whose answer is not the watched server's. */
const elsewhereText = (redirect, watchedPid) => `${redirectText(redirect)}, which is not this machine: its answers say nothing about the server being watched ` +
    `(pid ${watchedPid}). Give the URL the server itself answers on, or set "port-check: false" for a proxy`;
/** Before `start`: other processes hold memory on the GPUs the server will use. */
function gpuBusyText(apps, gpus) {
    const where = (uuid) => {
        const gpu = gpus.find((g) => g.uuid === uuid);
        return gpu === undefined ? uuid : `GPU ${gpu.index}`;
    };
    const each = apps.map((a) => `pid ${a.pid} (${a.processName}) ${a.usedMiB === undefined ? 'an unknown amount' : `${a.usedMiB} MiB`} on ${where(a.gpuUuid)}`);
    return `Other processes hold memory on the GPUs the server will use: ${each.join('; ')}`;
}
/** The post step, when the main step left it no server to stop (none launched by `start`, or `stop: never`). */
const NOTHING_TO_STOP = 'No server to stop at the job end: none was launched by "start" with "stop: job-end".';
/** The post step could not stop the server (an error of its own, never the job's failure). */
const jobEndErrorText = (pid, message) => `Could not stop the server${pid === undefined ? '' : ` (pid ${pid})`} at the job end: ${message}`;
/** The server was stopped, but the job summary could not be written. */
const jobEndSummaryErrorText = (message) => `The server was stopped, but the job summary could not be written: ${message}`;
/** The job-end step was signalled (the runner cancelling it): it stopped the server without waiting any longer. */
const jobEndCancelledText = (signal) => `The job-end step was cancelled (${signal}): the server was sent SIGKILL at once if still running, ` +
    'and its GPU memory was not waited for.';
/** The job summary's section on the job-end stop: how it stopped, how long it took, its GPU memory, and why not cleanly. */
function jobEndSummary(end, cancelledBy) {
    const r = end.record;
    const g = r.gpu;
    const rows = [
        ...(cancelledBy === undefined ? [] : [['Cancelled', jobEndCancelledText(cancelledBy)]]),
        ['Server process', `pid ${r.pid} (${r.scope === 'group' ? 'its process group' : 'with its child processes'})`],
        [
            'Result',
            r.outcome === 'refused'
                ? `\u26a0\ufe0f refused: ${refusedText(r.pid, r.refused)}`
                : r.notOurs !== undefined && r.outcome === 'not-running'
                    ? `left alone: ${notOursText(r.pid, r.notOurs)}`
                    : r.outcome === 'not-running'
                        ? 'already gone'
                        : r.outcome === 'survived'
                            ? `\u26a0\ufe0f still running after SIGKILL: pid ${(r.survivors ?? []).join(', ')}`
                            : end.clean
                                ? '\u2705 stopped'
                                : '\u26a0\ufe0f stopped, not cleanly'
        ]
    ];
    if (r.signal !== undefined)
        rows.push(['Last signal sent', r.signal]);
    if (r.exitCode !== undefined && r.exitCode !== null)
        rows.push(['Exit code', String(r.exitCode)]);
    if (r.exitSignal)
        rows.push(['Ended by', r.exitSignal]);
    if (r.secondsToExit !== undefined)
        rows.push(['Gone after SIGTERM', `${s1(r.secondsToExit)}`]);
    if (g.kind === 'released') {
        rows.push(['GPU memory released after SIGTERM', s1(g.seconds)]);
        rows.push(['GPU memory released', g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show']);
    }
    else if (g.kind === 'held')
        rows.push(['GPU memory', `\u26a0\ufe0f ${g.heldMib} of ${g.mib} MiB still held after ${s1(g.seconds)}`]);
    else if (g.kind === 'none')
        rows.push(['GPU memory', 'none held']);
    else
        rows.push(['GPU memory', `not looked at (nvidia-smi: ${g.why})`]);
    const lines = ['### wait-for-model: server stopped at the job end', '', '| | |', '|---|---|'];
    lines.push(...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), '');
    if (end.logTail !== undefined) {
        lines.push(`#### ${logTailTitle(end.logTail, end.logFile)}`, '');
        lines.push(fenced(end.logTail.map((l) => `${l.number}: ${l.text}`).join('\n')), '');
    }
    return `${lines.join('\n')}\n`;
}
/** A debug line: the GPU pre-flight had no reading (a machine without GPUs is no reason to say more). */
const gpuUnavailableText = (why, detail) => `GPU check skipped: no reading from nvidia-smi (${why}${detail ? `: ${detail}` : ''}).`;
/** A debug line: the port is a container's, published by docker-proxy; whose container cannot be told from here. */
const dockerProxyText = (o, watchedPid) => `Port ${o.port} is held by docker-proxy (a container's published port), not by process ${watchedPid}: taken as ` +
    "the watched server's, since a container's sockets are not in this machine's network namespace.";
/** The engine's own readiness answer, as the log and the summary name it: `SGLang GET /health`. */
const engineReadinessRequest = (engine, url) => `${engine} GET ${url.pathname}`;
/** `load: true` and a sleeping engine (vLLM's sleep mode): the request that wakes it has gone out. */
const wakeAskedText = (engine, url) => `Asked ${engine} to wake up: POST ${url.pathname}`;
/** `load: true`: the request that asks the server to load the model has gone out. */
const loadAskedText = (url, model) => `Asked the server to load "${String(model)}": POST ${url.pathname}`;

;// CONCATENATED MODULE: ./src/server/job-end.ts
/** State names, as the runner passes them back: `STATE_<name>`. */
const NAMES = {
    pid: 'server-pid',
    startTicks: 'server-start-ticks',
    bootId: 'boot-id',
    runMarker: 'run-marker',
    timeoutMs: 'stop-timeout-ms',
    logFile: 'server-log-file',
    logLines: 'log-lines'
};
/** The state to save after the wait, or undefined when the post step has nothing to do. */
function jobEndState(settings, server) {
    // only a server this step launched is this job's to stop: one given by `pid` belongs to whoever started it
    if (settings.start === undefined || settings.stop !== 'job-end' || server?.pid === undefined)
        return undefined;
    return {
        [NAMES.pid]: String(server.pid),
        [NAMES.startTicks]: server.startTicks === undefined ? '' : String(server.startTicks),
        [NAMES.bootId]: server.bootId ?? '',
        [NAMES.runMarker]: server.runMarker ?? '',
        [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
        [NAMES.logFile]: server.logFile ?? '',
        [NAMES.logLines]: String(settings.logLines)
    };
}
/** A state value not in the form the main step writes: the whole state is refused, and nothing is signalled. */
class JobEndStateError extends Error {
    stateName;
    value;
    form;
    constructor(
    /** The state's name (the variable is `STATE_<name>`). */
    stateName, value, 
    /** The form the main step writes. */
    form) {
        super(`STATE_${stateName}: not ${form}`);
        this.stateName = stateName;
        this.value = value;
        this.form = form;
        this.name = 'JobEndStateError';
    }
}
/** Linux's largest pid (PID_MAX_LIMIT); pid 1 is init, never a server this step launched. */
const PID_MAX = 4_194_304;
const BOOT_ID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MARKER_FORM = /^[0-9a-f]{32}$/;
/** A path as `log-file` takes it (relative to the workspace, as the post step runs there too): no control character, at most PATH_MAX. */
// eslint-disable-next-line no-control-regex
const PATH_FORM = /^[^\0-\x1f\x7f]{1,4095}$/;
/**
 * Reads the state back (`get` returns '' for a name not saved); undefined when the main step saved none. A value
 * in any other form than the one `jobEndState` writes throws JobEndStateError.
 */
function readJobEndState(get) {
    const pidText = get(NAMES.pid);
    if (pidText === '')
        return undefined;
    const whole = (name, min, max, form, optional = false) => {
        const text = get(name);
        if (optional && text === '')
            return undefined;
        if (!/^\d{1,16}$/.test(text) || Number(text) < min || Number(text) > max)
            throw new JobEndStateError(name, text, form);
        return Number(text);
    };
    const matching = (name, pattern, form) => {
        const text = get(name);
        if (text === '')
            return undefined;
        if (!pattern.test(text))
            throw new JobEndStateError(name, text, form);
        return text;
    };
    const pid = whole(NAMES.pid, 2, PID_MAX, `a process id from 2 to ${PID_MAX}`);
    return {
        pid,
        startTicks: whole(NAMES.startTicks, 0, Number.MAX_SAFE_INTEGER, 'a start time in clock ticks, or empty', true),
        bootId: matching(NAMES.bootId, BOOT_ID_FORM, 'a boot id (a UUID in lower case), or empty'),
        runMarker: matching(NAMES.runMarker, MARKER_FORM, 'a run marker (32 hexadecimal digits), or empty'),
        timeoutMs: whole(NAMES.timeoutMs, 1, 2_147_483_647, 'milliseconds from 1 to 2147483647'),
        logFile: matching(NAMES.logFile, PATH_FORM, 'a path without control characters, or empty'),
        logLines: whole(NAMES.logLines, 0, 1000, 'a whole number from 0 to 1000')
    };
}

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: ./src/server/proc.ts
/** Reading Linux's /proc: one process's stat line, the process ids, a command line, an environment. Undefined or empty without it. */

function procStat(pid, proc = '/proc') {
    try {
        const stat = (0,external_node_fs_namespaceObject.readFileSync)(`${proc}/${pid}/stat`, 'utf8');
        // the command name in parentheses may hold spaces and parentheses: count fields from the last ')'
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), startTicks: Number(f[19]) };
    }
    catch {
        return undefined;
    }
}
/** Every process id /proc shows (empty without /proc). */
function proc_procPids(proc = '/proc') {
    try {
        return (0,external_node_fs_namespaceObject.readdirSync)(proc)
            .filter((n) => /^\d+$/.test(n))
            .map(Number);
    }
    catch {
        return [];
    }
}
const MAX_COMMAND = 500;
/** The command line of `pid`, arguments joined by spaces (its name in brackets where it has none), or "" once gone. */
function proc_commandLine(pid, proc = '/proc') {
    try {
        const args = (0,external_node_fs_namespaceObject.readFileSync)(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        if (args !== '')
            return args.length > MAX_COMMAND ? `${args.slice(0, MAX_COMMAND)}\u2026` : args;
        return `[${(0,external_node_fs_namespaceObject.readFileSync)(`${proc}/${pid}/comm`, 'utf8').trim()}]`;
    }
    catch {
        return '';
    }
}
/** The environment `pid` started with (`/proc/<pid>/environ`), or undefined when it cannot be read (gone, another user's, no /proc). */
function procEnviron(pid, proc = '/proc') {
    try {
        const entries = readFileSync(`${proc}/${pid}/environ`, 'utf8')
            .split('\0')
            .filter((e) => e.includes('='));
        return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/server/port-owner.ts
/**
 * Who listens on a local TCP port, read from Linux's /proc: the listening sockets of /proc/net/tcp and tcp6, each
 * socket's inode found among the processes' file descriptors (/proc/<pid>/fd \u2192 `socket:[inode]`), and each
 * holder's command line. Structured answers only; without /proc (not Linux) the answer is `unknown`.
 *
 * /proc/net/tcp is the table of the reader's network namespace: a server in a container with its own
 * namespace (docker -p) shows as the proxy that forwards the port, which is what answers the gate anyway.
 */



const LISTEN = '0A';
/** Who listens on `port` (any local address, IPv4 and IPv6). */
function portOwner(port, { proc = '/proc' } = {}) {
    const sockets = listeningSockets(proc, port);
    if (sockets === undefined)
        return { kind: 'unknown', port };
    if (sockets.length === 0)
        return { kind: 'free', port };
    const holders = socketHolders(proc, new Set(sockets.map((s) => s.inode)));
    return {
        kind: 'listening',
        port,
        listeners: sockets.map((s) => ({ ...s, holders: holders.get(s.inode) ?? [] }))
    };
}
/**
 * Whether what listens on `port` belongs to the process `pid` or its descendants (a `start` shell that runs the
 * server as its child, a server that forks workers): the listening socket's inode among their descriptors.
 */
function listenerOwnership(port, pid, options = {}) {
    const owner = portOwner(port, options);
    if (owner.kind !== 'listening')
        return owner;
    const family = processTree(options.proc ?? '/proc', pid);
    for (const l of owner.listeners) {
        const holder = l.holders.find((h) => family.has(h.pid));
        if (holder !== undefined)
            return { kind: 'ours', port, holder };
    }
    return { kind: 'foreign', port, listeners: owner.listeners };
}
/** `pid` and every process descended from it, from the parent ids of /proc/<pid>/stat. */
function processTree(proc, pid) {
    const children = new Map();
    for (const p of proc_procPids(proc)) {
        const parent = procStat(p, proc)?.ppid;
        if (parent !== undefined)
            children.set(parent, [...(children.get(parent) ?? []), p]);
    }
    const family = new Set([pid]);
    const queue = [pid];
    while (queue.length > 0) {
        for (const child of children.get(queue.shift()) ?? []) {
            if (family.has(child))
                continue;
            family.add(child);
            queue.push(child);
        }
    }
    return family;
}
/** The listening sockets on `port`; undefined when neither table can be read. */
function listeningSockets(proc, port) {
    let read = false;
    const found = [];
    for (const table of ['tcp', 'tcp6']) {
        let text;
        try {
            text = readFileSync(`${proc}/net/${table}`, 'utf8');
            read = true;
        }
        catch {
            continue; // tcp6 is absent on a kernel without IPv6
        }
        for (const line of text.split('\n').slice(1)) {
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode \u2026
            const f = line.trim().split(/\s+/);
            if (f.length < 10 || f[3] !== LISTEN)
                continue;
            const [hexAddress, hexPort] = f[1].split(':');
            if (parseInt(hexPort, 16) !== port)
                continue;
            found.push({ address: decodeAddress(hexAddress), port, inode: Number(f[9]) });
        }
    }
    return read ? found : undefined;
}
/** The kernel prints each 32-bit word of the address in host order (little-endian on the runners' x86 and arm64). */
function decodeAddress(hex) {
    const words = hex.match(/.{8}/g) ?? [];
    const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
    if (bytes.length === 4)
        return bytes.join('.');
    const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
    if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff')
        return `::ffff:${bytes.slice(12).join('.')}`;
    // the shortest form for the common cases (:: and ::1); other addresses in full
    const text = groups.join(':');
    return text === '0:0:0:0:0:0:0:0' ? '::' : text === '0:0:0:0:0:0:0:1' ? '::1' : text;
}
/** The processes holding each of `inodes` among their file descriptors (those this user may read). */
function socketHolders(proc, inodes) {
    const holders = new Map();
    for (const pid of procPids(proc)) {
        let fds;
        try {
            fds = readdirSync(`${proc}/${pid}/fd`);
        }
        catch {
            continue; // another user's process, or gone
        }
        const held = new Set();
        for (const fd of fds) {
            let target;
            try {
                target = readlinkSync(`${proc}/${pid}/fd/${fd}`);
            }
            catch {
                continue;
            }
            const m = /^socket:\[(\d+)\]$/.exec(target);
            if (m && inodes.has(Number(m[1])))
                held.add(Number(m[1]));
        }
        if (held.size === 0)
            continue;
        const info = { pid, command: commandLine(pid, proc) };
        for (const inode of held)
            holders.set(inode, [...(holders.get(inode) ?? []), info]);
    }
    return holders;
}
/**
 * The port to check when `url` names this machine (loopback, `localhost`, this host's name or one of its
 * addresses), else undefined: a server elsewhere is probed as it is, its port is none of this machine's business.
 */
function localPort(url, hostName = process.getBuiltinModule('node:os').hostname()) {
    const host = bareHost(url.hostname);
    const os = process.getBuiltinModule('node:os');
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.toLowerCase()));
    const local = isLoopback(url.hostname) ||
        host.endsWith('.localhost') ||
        host === hostName.toLowerCase() ||
        addresses.includes(host);
    if (!local)
        return undefined;
    return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}
/** Docker's userland proxy, which holds a container's published port on the host (`docker run -p`). */
const isDockerProxy = (command) => /(^|\/)docker-proxy(\s|$)/.test(command);

;// CONCATENATED MODULE: ./src/inputs/secrets.ts
/**
 * Secrets: which names hold credentials, the parts of a credential a server may echo alone, and redaction of every
 * form a secret may take in text. One rule for headers, `env-report`, URL query parameters and masking.
 */
/** What a secret is replaced with. */
const MASK = '***';
/**
 * Names that say their value is a credential: one rule for request headers (masked in output, never forwarded to
 * another origin on a redirect), `env-report` variables (masked) and URL query parameters (masked). Short words
 * (PAT, PWD, PASS, DSN, JWT) count as a word of the name only (GH_PAT, MYSQL_PWD, PGPASS), so that PATH and the
 * shell's own PWD/OLDPWD (the working directory) are not taken for one.
 */
const isCredentialName = (name) => /auth|cookie|token|key|secret|passw|credential|signature|private|netrc|jwt|dsn/i.test(name) ||
    (/^sig$|(?:^|[_-])(?:pat|pass|pwd)(?:$|[_-])|pass$/i.test(name) && !/^(?:old)?pwd$/i.test(name));
/**
 * Credential shapes found by value, whatever the name: a URL's user information (`postgres://app:pw@db/x`, a
 * Sentry DSN, `https://ghp_\u2026@github.com`), a `password`/`passwd`/`pwd` field (`password=\u2026`, `.netrc`'s
 * `password \u2026`), a PEM block, and the token forms of GitHub (`ghp_`, `gho_`, `ghs_`, `ghu_`, `ghr_`,
 * `github_pat_`), GitLab (`glpat-`), Hugging Face (`hf_`), OpenAI-style keys (`sk-`), Slack (`xoxa-`, `xoxb-`,
 * `xoxp-`), npm (`npm_`), AWS access key ids (`AKIA\u2026`, `ASIA\u2026`) and JWTs (`eyJ\u2026.eyJ\u2026.\u2026`). Each is linear (no
 * nested quantifier, and a scheme starts only where a word starts), so that a hostile text of any length is
 * scanned in linear time.
 */
const CREDENTIAL_SHAPES = (/* unused pure expression or super */ null && ([
    /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+@/i,
    /\b(?:password|passwd|pwd)\b["']?\s*[=:]\s*\S|\blogin\s+\S+\s+password\s+\S/i,
    /-----BEGIN [A-Z0-9 ]*-----/,
    /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|glpat-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{16,})/,
    /\b(?:sk-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|npm_[A-Za-z0-9]{30,}|(?:AKIA|ASIA)[0-9A-Z]{16})/,
    /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/
]));
/** A value that holds a credential by its shape (CREDENTIAL_SHAPES), whatever it is called. */
const holdsCredential = (value) => CREDENTIAL_SHAPES.some((shape) => shape.test(value));
/** The one rule for a named value (an `env-report` variable): a credential by its name, its shape, or a known secret. */
const isSecretValue = (name, value, secrets = []) => isCredentialName(name) || holdsCredential(value) || secrets.some((s) => s !== '' && value.includes(s));
/**
 * Secrets shorter than this are refused: masking a one- to three-character string would blank it in every
 * word that holds it, and not masking it would print it. No real key is that short.
 */
const MIN_SECRET_CHARS = 4;
/** The variables that name a proxy, as curl, Python's requests and undici read them. */
const PROXY_VARIABLES = (/* unused pure expression or super */ null && (['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY']));
/**
 * The credentials in the proxy URLs of `env` (`http://user:password@proxy:3128`): the user and password as the
 * URL writes them, the password alone, and decoded. The action prints a proxy without them (`proxyLabel`), but
 * `env-report`, a server's log, the history or a proxy's own error page may carry the URL or the password. A
 * password shorter than MIN_SECRET_CHARS is masked only with its user, not alone (it would blank every word that
 * holds it); unlike an input, a variable the job sets for every step is not refused.
 */
function proxySecrets(env) {
    const found = new Set();
    for (const name of PROXY_VARIABLES) {
        // the authority's user information: up to its last @, as curl reads it (a password may hold a bare @)
        const userinfo = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]*)@/i.exec(env[name]?.trim() ?? '')?.[1];
        if (userinfo === undefined || userinfo === '')
            continue;
        const password = userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo;
        for (const s of [userinfo, password, decoded(password)])
            if (s.length >= MIN_SECRET_CHARS)
                found.add(s);
    }
    return [...found];
}
const decoded = (text) => {
    try {
        return decodeURIComponent(text);
    }
    catch {
        return text;
    }
};
/**
 * The parts of a credential header's value a server may echo alone, beside the whole value: the token after
 * an auth scheme (`Bearer tok`, `Basic dXNl\u2026`) and each cookie's value (`a=1; session=xyz`).
 */
function credentialParts(name, value) {
    if (/cookie/i.test(name))
        return value
            .split(';')
            .map((c) => c.slice(c.indexOf('=') + 1).trim())
            .filter((v) => v !== '');
    const scheme = /authorization/i.test(name) ? /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value) : null;
    return scheme ? [scheme[1].trim()] : [];
}
/**
 * Replaces every secret in `text`, as written and as JSON escapes it once and twice (a body quoted in a debug
 * line): the CLI has no runner to mask for it, and the action masks before the runner does.
 */
function redact(text, secrets) {
    return redactShapes(redactKnown(text, secrets));
}
/**
 * Text as it may be shown: each credential shape of CREDENTIAL_SHAPES masked where it stands (a URL keeps its
 * scheme and host, a password field its name). A PEM block's body lines are not recognisable one by one; its
 * BEGIN line is masked, and `env-report` masks such a value whole.
 */
function redactShapes(text) {
    return text
        .replace(/(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${MASK}@`)
        .replace(/(\b(?:password|passwd|pwd)\b["']?\s*[=:]\s*["']?)[^\s"',;&]+/gi, `$1${MASK}`)
        .replace(/(\blogin\s+\S+\s+password\s+)\S+/gi, `$1${MASK}`)
        .replace(/-----BEGIN [A-Z0-9 ]*-----/g, MASK)
        .replace(/\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|glpat-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{16,}|sk-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|npm_[A-Za-z0-9]{30,}|(?:AKIA|ASIA)[0-9A-Z]{16})/g, MASK)
        .replace(/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, MASK);
}
function redactKnown(text, secrets) {
    const forms = new Set();
    for (const s of secrets) {
        const once = JSON.stringify(s).slice(1, -1);
        forms.add(s).add(once).add(JSON.stringify(once).slice(1, -1));
    }
    // longest first, so that a part (the token) never splits the whole (`Bearer token`) before it is masked
    return [...forms]
        .filter((s) => s !== '')
        .sort((a, b) => b.length - a.length)
        .reduce((t, s) => (t.includes(s) ? t.split(s).join(MASK) : t), text);
}

;// CONCATENATED MODULE: ./src/runtime/file-kind.ts
/** What a path is when it is not a regular file, in words; undefined for a regular file. */
function notRegularFile(stat) {
    if (stat.isFile())
        return undefined;
    if (stat.isDirectory())
        return 'a directory';
    if (stat.isFIFO())
        return 'a FIFO';
    if (stat.isCharacterDevice())
        return 'a character device';
    if (stat.isBlockDevice())
        return 'a block device';
    if (stat.isSocket())
        return 'a socket';
    return 'not a regular file';
}

;// CONCATENATED MODULE: ./src/runtime/clock.ts
/**
 * process.uptime() counts from the process's start, which is the step's start for the action, as
 * performance.now() does; but the first read of `performance` loads nine modules of node:perf_hooks, a few
 * milliseconds of start-up before the first probe (`npm run bench`, start-up).
 */
const systemClock = {
    now: () => process.uptime() * 1000,
    wallMs: () => Date.now(),
    sleep: (ms, signal) => new Promise((resolve) => {
        if (signal?.aborted)
            return resolve();
        const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
    })
};
/** `850ms`, `12.3s`, `4m05s`, `1h02m`: short, and exact enough to read at a glance. */
function formatDuration(ms) {
    if (ms < 1000)
        return `${Math.round(ms)}ms`;
    if (ms < 59_950)
        return `${seconds(ms)}s`;
    const totalS = Math.floor(ms / 1000);
    const h = Math.floor(totalS / 3600);
    const m = Math.floor((totalS % 3600) / 60);
    const s = totalS % 60;
    return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s).padStart(2, '0')}s`;
}
/** Seconds with one decimal, as the outputs give them. */
const seconds = (ms) => (Math.round(ms / 100) / 10).toFixed(1);

;// CONCATENATED MODULE: ./src/server/log-follower.ts
/**
 * Follows a server's log file: the lines appended since the last look, numbered, and the last lines kept for the
 * tail. Each look does a bounded amount of work whatever the file holds (a 200 MB log, a server flooding its log,
 * a log replaced by a directory), so that the wait never stalls behind it and its memory never grows with it.
 */




/** A line longer than this is cut (a progress bar redrawn with \r for an hour is one line). */
const MAX_LINE_CHARS = 2000;
/** Of a line longer than MAX_LINE_CHARS, only this many bytes are kept while it is being read (UTF-8: 4 per character). */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4;
/** Lines decoded per look: each then goes through the startup profile and `fail-pattern`. */
const LINES_PER_POLL = 1000;
/** Bytes decoded into lines per look. */
const READ_BYTES_PER_POLL = 256 * 1024;
/** Bytes only counted (for line numbers) per look. */
const COUNT_BYTES_PER_POLL = 32 * 1024 * 1024;
/**
 * And at most this long a look, read in 64 KB chunks: the action runs without V8's optimising compilers, so
 * counting the lines of `yes` output takes far longer per megabyte than an ordinary log's. A CPU budget, not a
 * time the wait depends on: it bounds how long a look holds the event loop (the deadline, signals), nothing else.
 */
const WORK_MS_PER_POLL = 20;
/**
 * Of what a log held before the wait, only its last this many bytes are read as lines (the phases so far and the
 * tail); the rest is counted. When a server writes faster than the follower reads and the backlog passes
 * BACKLOG_BYTES, the follower likewise counts its way to the last WINDOW_BYTES.
 */
const WINDOW_BYTES = 256 * 1024;
const BACKLOG_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
class LogFollower {
    path;
    keep;
    /** Bytes of the file consumed: counted, or read into lines (the unfinished last line is in `pending`). */
    offset = 0;
    lineCount = 0;
    pending = [];
    pendingBytes = 0;
    pendingCut = false;
    /** Up to where the file is only counted, not read into lines. */
    countUntil = 0;
    /** The first line read after counting began before the counting ended: counted, never shown. */
    dropPartial = false;
    /** Lines that end before this offset were in the file before the wait: handed to `earlier`, never to `poll`. */
    earlierUntil = 0;
    recent = [];
    chunk = Buffer.alloc(CHUNK_BYTES);
    earlier;
    secrets;
    /** Why the log can no longer be read (it became a directory); set once, the follower then reads nothing. */
    problem;
    /**
     * `keep`: how many last lines to hold for `tail`. Unless `fromStart` (the log of a server this process has
     * just started, where every line is new however fast it came), what the file already holds is counted and its
     * last lines are kept for the tail and handed to `earlier` (by the looks that read them), but never returned by
     * `poll`: only lines written from now on are new. Nothing is read here, so the wait starts at once.
     * `fromStart` with `skipBytes`: the server appends to a log that already held that much (an earlier run's),
     * which is only counted (by the first looks), so that line numbers are the file's.
     * `secrets` are masked in each line before it is cut to MAX_LINE_CHARS.
     */
    constructor(path, keep, { fromStart = false, skipBytes = 0, earlier, secrets = [] } = {}) {
        this.path = path;
        this.keep = keep;
        this.earlier = earlier;
        this.secrets = secrets;
        if (fromStart) {
            this.countUntil = skipBytes;
            return;
        }
        const size = this.withFile((_fd, s) => s) ?? 0;
        this.earlierUntil = size;
        this.countUntil = Math.max(0, size - WINDOW_BYTES);
    }
    /** The complete lines appended since the last call (at most LINES_PER_POLL of them). */
    poll() {
        const fresh = [];
        const old = [];
        const until = systemClock.now() + WORK_MS_PER_POLL;
        this.withFile((fd, size) => {
            // truncated or replaced (also before the first look read what it held)
            if (size < this.offset || size < this.earlierUntil)
                this.restart();
            if (size - this.offset > BACKLOG_BYTES && this.offset >= this.countUntil)
                this.countUntil = size - WINDOW_BYTES;
            if (this.offset < this.countUntil)
                this.count(fd, until);
            if (this.offset >= this.countUntil)
                this.read(fd, size, fresh, old, until);
        });
        if (old.length > 0)
            this.earlier?.(old);
        return fresh;
    }
    /** Whether lines already written are still unread. */
    behind() {
        return (this.withFile((_fd, size) => size > this.offset) ?? false) && this.problem === undefined;
    }
    /** Opens the file without blocking (a FIFO would) and checks it is still a regular file; undefined when it is not there. */
    withFile(use) {
        if (this.problem !== undefined)
            return undefined;
        let fd;
        try {
            fd = (0,external_node_fs_namespaceObject.openSync)(this.path, external_node_fs_namespaceObject.constants.O_RDONLY | external_node_fs_namespaceObject.constants.O_NONBLOCK);
        }
        catch (e) {
            if (e.code !== 'ENOENT')
                this.fail(e);
            return undefined; // not written yet
        }
        try {
            const stat = (0,external_node_fs_namespaceObject.fstatSync)(fd);
            const what = notRegularFile(stat);
            if (what !== undefined) {
                this.problem = `the log ${this.path} is no longer a regular file (it is ${what} now)`;
                return undefined;
            }
            return use(fd, stat.size);
        }
        catch (e) {
            this.fail(e);
            return undefined;
        }
        finally {
            (0,external_node_fs_namespaceObject.closeSync)(fd);
        }
    }
    fail(e) {
        this.problem = `the log ${this.path} cannot be read (${e.code ?? e.message})`;
    }
    /** Counts the lines up to `countUntil`, within the look's budget, reading nothing into memory. */
    count(fd, until) {
        const end = Math.min(this.countUntil, this.offset + COUNT_BYTES_PER_POLL);
        let last = -1;
        while (this.offset < end && systemClock.now() < until) {
            const n = (0,external_node_fs_namespaceObject.readSync)(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset);
            if (n === 0)
                break;
            // one native pass (a loop in JavaScript, or indexOf per line, is several times slower without the optimising compilers)
            const text = this.chunk.toString('latin1', 0, n);
            this.lineCount += text.length - text.replaceAll('\n', '').length;
            last = this.chunk[n - 1];
            this.offset += n;
        }
        if (last === -1)
            return;
        // what was pending is part of a counted line now; the line under way at the end of counting is never whole
        this.pending = [];
        this.pendingBytes = 0;
        this.pendingCut = false;
        this.dropPartial = last !== 0x0a;
    }
    read(fd, size, fresh, old, until) {
        const end = Math.min(size, this.offset + READ_BYTES_PER_POLL);
        let lines = 0;
        while (this.offset < end && lines < LINES_PER_POLL && systemClock.now() < until) {
            const n = (0,external_node_fs_namespaceObject.readSync)(fd, this.chunk, 0, Math.min(CHUNK_BYTES, end - this.offset), this.offset);
            if (n === 0)
                break;
            let start = 0;
            for (let nl = this.chunk.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = this.chunk.indexOf(0x0a, start)) {
                this.take(this.chunk.subarray(start, nl));
                start = nl + 1;
                const line = this.finishLine();
                if (line !== undefined) {
                    ;
                    (this.offset + start <= this.earlierUntil ? old : fresh).push(line);
                    if (++lines >= LINES_PER_POLL)
                        break;
                }
            }
            if (lines >= LINES_PER_POLL && start < n) {
                this.offset += start; // the rest is read by the next look
                return;
            }
            this.take(this.chunk.subarray(start, n));
            this.offset += n;
        }
    }
    /** Adds bytes to the unfinished line, keeping at most MAX_LINE_BYTES of it. */
    take(bytes) {
        const room = MAX_LINE_BYTES - this.pendingBytes;
        if (bytes.length > room)
            this.pendingCut = true;
        const kept = bytes.subarray(0, Math.max(0, room));
        if (kept.length === 0)
            return;
        this.pending.push(Buffer.from(kept));
        this.pendingBytes += kept.length;
    }
    /** The unfinished line is finished: numbered, kept for the tail, and returned unless it was partly counted. */
    finishLine() {
        const text = this.pendingText();
        this.pending = [];
        this.pendingBytes = 0;
        this.pendingCut = false;
        this.lineCount++;
        if (this.dropPartial) {
            this.dropPartial = false;
            return undefined;
        }
        const line = { number: this.lineCount, text: text.replace(/\r$/, '') };
        if (this.keep > 0) {
            this.recent.push(line);
            if (this.recent.length > this.keep)
                this.recent.shift();
        }
        return line;
    }
    pendingText() {
        const text = redact(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'), this.secrets);
        return text.length > MAX_LINE_CHARS || this.pendingCut ? `${text.slice(0, MAX_LINE_CHARS)}\u2026` : text;
    }
    /**
     * The last `keep` lines, including an unfinished last line; undefined when the file does not exist. Reads what
     * is left (within a bounded number of looks) first, so that the tail ends where the file does.
     */
    tail() {
        for (let looks = 0; looks < 20 && this.behind(); looks++)
            this.poll();
        if (this.problem === undefined && this.withFile(() => true) === undefined)
            return undefined;
        if (this.keep === 0)
            return [];
        const unfinished = this.pendingBytes === 0 || this.dropPartial ? [] : [{ number: this.lineCount + 1, text: this.pendingText() }];
        return [...this.recent, ...unfinished].slice(-this.keep);
    }
    restart() {
        this.offset = 0;
        this.lineCount = 0;
        this.pending = [];
        this.pendingBytes = 0;
        this.pendingCut = false;
        this.countUntil = 0;
        this.dropPartial = false;
        this.earlierUntil = 0;
    }
}

;// CONCATENATED MODULE: ./src/server/guard.ts
/**
 * Which processes a stop may signal, read from Linux's /proc. Never this process, one of its ancestors (the
 * runner's step, the runner itself), pid 1, a runner's own processes (`Runner.Worker`, `Runner.Listener`, its
 * service scripts), nor a process group any of them is in. A pid recorded at launch is the server only while it
 * names the process that started then (`/proc/<pid>/stat` field 22, on the same boot): Linux reuses pids, and a
 * server that died early leaves its pid to a stranger. A process that carries the run's marker in its
 * environment (`WAIT_FOR_MODEL_RUN=<id>`, set at launch and inherited by whatever the server starts) is the
 * server's, wherever it went: a worker that double-forked out of the group, an orphaned engine core.
 */


/** The variable `start` tags the server's environment with. */
const RUN_MARKER = 'WAIT_FOR_MODEL_RUN';
/** The runner's own programs, by their command line (the hosted runners' and a self-hosted one's, as installed). */
const RUNNER_COMMAND = /(^|\/)(Runner\.Worker|Runner\.Listener|runsvc\.sh|run-helper\.sh)(\s|$)/;
/** An ancestor chain longer than this is a loop in a hostile or broken /proc: stop walking. */
const MAX_DEPTH = 4096;
/** The processes and groups a stop must leave alone, as seen now from `self` (this process). */
function processGuard(proc = '/proc', self = process.pid) {
    const spared = new Map([[1, 'init']]);
    const groups = new Set();
    const selfStat = procStat(self, proc);
    spared.set(self, 'self');
    if (selfStat !== undefined)
        groups.add(selfStat.pgrp);
    // without /proc only the parent is known
    let parent = selfStat?.ppid ?? (self === process.pid ? process.ppid : 0);
    for (let depth = 0; parent > 1 && depth < MAX_DEPTH && !spared.has(parent); depth++) {
        spared.set(parent, 'ancestor');
        const stat = procStat(parent, proc);
        if (stat !== undefined)
            groups.add(stat.pgrp);
        parent = stat?.ppid ?? 0;
    }
    for (const pid of proc_procPids(proc)) {
        if (spared.has(pid) || !RUNNER_COMMAND.test(proc_commandLine(pid, proc)))
            continue;
        spared.set(pid, 'runner');
        const stat = procStat(pid, proc);
        if (stat !== undefined)
            groups.add(stat.pgrp);
    }
    // The leader of a group this process, an ancestor or the runner is in need not be an ancestor (the shell of a
    // pipeline, a job-control wrapper): signalling it would stop the stopper's own job all the same.
    return {
        spared: (pid) => spared.get(pid) ?? (groups.has(pid) ? 'group-leader' : undefined),
        groupSpared: (pgid) => groups.has(pgid) || spared.has(pgid)
    };
}
/** Whether `pid` still names the process `recorded` describes. */
function identify(pid, recorded, proc = '/proc') {
    if (recorded.startTicks === undefined || procStat(process.pid, proc) === undefined)
        return { kind: 'unchecked' };
    const boot = bootId(proc);
    if (recorded.bootId !== undefined && boot !== undefined && boot !== recorded.bootId)
        return { kind: 'rebooted' };
    const stat = procStat(pid, proc);
    if (stat === undefined || stat.state === 'Z')
        return { kind: 'gone' };
    if (stat.startTicks !== recorded.startTicks)
        return { kind: 'reused', startTicks: stat.startTicks, expectedTicks: recorded.startTicks };
    return { kind: 'same' };
}
/** This boot's id, or undefined without /proc. */
function bootId(proc = '/proc') {
    try {
        return (0,external_node_fs_namespaceObject.readFileSync)(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim() || undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * The processes whose environment carries `RUN_MARKER=<marker>`, among those this user may read, that started no
 * earlier than `sinceTicks`. `seen` caches each answer by pid and start time: an environment is fixed at exec, and
 * reading every process's on every poll would cost the stop more than the stop itself.
 */
function markedProcesses(marker, sinceTicks, seen, proc = '/proc') {
    const needle = `\0${RUN_MARKER}=${marker}\0`;
    const found = [];
    for (const pid of proc_procPids(proc)) {
        const stat = procStat(pid, proc);
        if (stat === undefined || stat.state === 'Z' || stat.startTicks < sinceTicks)
            continue;
        const key = `${pid}:${stat.startTicks}`;
        let marked = seen.get(key);
        if (marked === undefined) {
            marked = environHas(pid, needle, proc);
            seen.set(key, marked);
        }
        if (marked)
            found.push(pid);
    }
    return found;
}
function environHas(pid, needle, proc) {
    try {
        // latin1 maps each byte to one character: a byte search, whatever the encoding of the other variables
        return `\0${(0,external_node_fs_namespaceObject.readFileSync)(`${proc}/${pid}/environ`, 'latin1')}\0`.includes(needle);
    }
    catch {
        return false; // another user's process, or gone
    }
}
/** `roots` and every process descended from them, from the parent ids of /proc/<pid>/stat. */
function descendantsOf(roots, proc = '/proc') {
    const children = new Map();
    for (const p of proc_procPids(proc)) {
        const parent = procStat(p, proc)?.ppid;
        if (parent !== undefined)
            children.set(parent, [...(children.get(parent) ?? []), p]);
    }
    const family = new Set(roots);
    const queue = [...family];
    while (queue.length > 0) {
        for (const child of children.get(queue.shift()) ?? []) {
            if (family.has(child))
                continue;
            family.add(child);
            queue.push(child);
        }
    }
    return family;
}

;// CONCATENATED MODULE: ./src/server/stop.ts
/**
 * Stops a server and everything it started: SIGTERM to its process group, up to a timeout for it to exit, then
 * SIGKILL; then waits until none of its processes remain and, where nvidia-smi tells, until none of them holds GPU
 * memory (the next job on a shared runner needs it back). The answer is a record of how it went, never words.
 */





/** Stops the server `pid` and its processes; see the module comment. */
async function stopServer(options, deps) {
    const { clock } = deps;
    const proc = deps.proc ?? '/proc';
    const pollMs = options.pollMs ?? 100;
    const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal));
    const guard = processGuard(proc);
    const refused = guard.spared(options.pid);
    if (refused !== undefined)
        return { pid: options.pid, scope: 'tree', outcome: 'refused', refused, pids: [], gpu: { kind: 'none' } };
    const { launch } = options;
    const identity = launch === undefined ? undefined : identify(options.pid, launch, proc);
    const notOurs = identity === undefined || identity.kind === 'same' || identity.kind === 'gone' ? undefined : identity;
    // after a reboot nothing running can be the server's; a reused pid is a stranger's, and so is its group; a pid
    // that cannot be checked is left alone like one that failed the check
    const leader = notOurs === undefined ? procStat(options.pid, proc) : undefined;
    const inGroup = () => proc_procPids(proc).filter((p) => procStat(p, proc)?.pgrp === options.pid);
    // A group outlives its leader (workers left behind by a server that crashed), and Linux reuses no pid that
    // still names a group: with the leader gone, processes in group `pid` are that server's. With a launch
    // record, only those that carry its marker are: the group may be a stranger's that took the pid and left.
    const leaderless = notOurs === undefined && (leader === undefined || leader.state === 'Z');
    const marker = notOurs?.kind === 'rebooted' ? undefined : launch?.marker;
    const seen = new Map();
    const marked = () => marker === undefined ? [] : markedProcesses(marker, launch?.startTicks ?? 0, seen, proc);
    // never a group a spared process is in: that would stop the stopper (and the runner's step with it)
    const groupScope = notOurs === undefined &&
        !guard.groupSpared(options.pid) &&
        (leaderless ? launch === undefined && inGroup().length > 0 : leader?.pgrp === options.pid);
    const scope = groupScope ? 'group' : 'tree';
    const spared = new Set();
    const members = () => {
        // a pid checked as gone may be taken by a stranger any moment: with a launch record, it is not looked at again
        const tree = notOurs === undefined && !(leaderless && launch !== undefined) ? [...processTree(proc, options.pid)] : [];
        const group = groupScope ? inGroup() : [];
        // with the leader gone, its group's processes that carry the marker are among these
        const tagged = marked();
        const found = new Set([...tree, ...group, ...(tagged.length > 0 ? descendantsOf(tagged, proc) : [])]);
        return [...found].flatMap((pid) => {
            if (guard.spared(pid) !== undefined) {
                spared.add(pid);
                return [];
            }
            const stat = procStat(pid, proc);
            // without /proc only the pid itself can be asked about (and, with a launch record, not even that)
            if (stat === undefined)
                return pid === options.pid && launch === undefined && signalled(kill, pid, 0) ? [{ pid }] : [];
            return stat.state === 'Z' ? [] : [{ pid, startTicks: stat.startTicks }];
        });
    };
    const initial = members();
    const inside = new Set(notOurs === undefined ? [...processTree(proc, options.pid), ...inGroup()] : []);
    const escaped = initial.map((m) => m.pid).filter((p) => !inside.has(p));
    const base = {
        pid: options.pid,
        scope,
        pids: initial.map((m) => m.pid),
        ...(notOurs === undefined ? {} : { notOurs }),
        ...(escaped.length > 0 ? { escaped } : {}),
        ...(spared.size > 0 ? { spared: [...spared] } : {})
    };
    if (initial.length === 0)
        return { ...base, outcome: 'not-running', gpu: { kind: 'none' } };
    const before = deps.gpu ? await deps.gpu() : undefined;
    // every process seen as the server's, by pid and start time (a reused pid is another process)
    const tracked = new Map(initial.map((m) => [m.pid, m.startTicks]));
    const family = () => new Set(tracked.keys());
    const atStart = before?.kind === 'available' ? memoryHeldBy(before, family()) : undefined;
    const heldAtStart = atStart?.mib ?? 0;
    let exit;
    void deps.exited?.then((e) => (exit = e));
    const alive = () => {
        const now = members();
        // any process the server has started since counts too
        for (const m of now)
            if (!tracked.has(m.pid))
                tracked.set(m.pid, m.startTicks);
        return now.filter((m) => tracked.get(m.pid) === m.startTicks).map((m) => m.pid);
    };
    const send = (signal) => {
        if (scope === 'group') {
            signalled(kill, -options.pid, signal);
            // the group had them all, but for those that left it
            for (const pid of alive())
                if (procStat(pid, proc)?.pgrp !== options.pid)
                    signalled(kill, pid, signal);
        }
        else
            for (const pid of alive())
                signalled(kill, pid, signal);
    };
    const cancelled = () => deps.cancel?.aborted === true;
    const waitGone = async (ms, cancellable) => {
        const until = clock.now() + ms;
        for (;;) {
            if (alive().length === 0)
                return true;
            if (clock.now() >= until || (cancellable && cancelled()))
                return false;
            await clock.sleep(Math.min(pollMs, until - clock.now()), cancellable ? deps.cancel : undefined);
        }
    };
    const termAt = clock.now();
    const seconds = () => Math.round((clock.now() - termAt) / 100) / 10;
    send('SIGTERM');
    let signal = 'SIGTERM';
    let gone = await waitGone(options.timeoutMs, true);
    if (!gone) {
        signal = 'SIGKILL';
        send('SIGKILL');
        // SIGKILL'd processes go within milliseconds unless stuck in the kernel: a cancelled stop waits a second for them
        gone = await waitGone(cancelled() ? Math.min(1_000, options.killWaitMs ?? 1_000) : (options.killWaitMs ?? 10_000), false);
    }
    const secondsToExit = seconds();
    // /proc loses a process a moment before its parent hears of the exit: a few polls for the code
    for (let i = 0; gone && deps.exited !== undefined && exit === undefined && i < 10 && !cancelled(); i++)
        await clock.sleep(pollMs);
    const exited = {
        signal,
        ...(cancelled() ? { cancelled: true } : {}),
        ...(exit === undefined ? {} : { exitCode: exit.code, exitSignal: exit.signal })
    };
    const record = gone
        ? { ...base, ...exited, outcome: 'exited', secondsToExit }
        : { ...base, ...exited, outcome: 'survived', survivors: alive() };
    if (before === undefined)
        return { ...record, gpu: { kind: 'unavailable', why: 'not asked' } };
    if (before.kind === 'unavailable')
        return { ...record, gpu: { kind: 'unavailable', why: before.why } };
    // an entry whose memory nvidia-smi cannot show ([N/A]) still holds some: waited for like the others
    if (atStart === undefined || atStart.apps.length === 0)
        return { ...record, gpu: { kind: 'none' } };
    const gpuUntil = clock.now() + (options.gpuWaitMs ?? 30_000);
    for (;;) {
        const now = await deps.gpu();
        const held = now.kind === 'available' ? memoryHeldBy(now, family()) : undefined;
        if (held !== undefined && held.apps.length === 0)
            return { ...record, gpu: { kind: 'released', mib: heldAtStart, seconds: seconds() } };
        if (clock.now() >= gpuUntil || cancelled()) {
            return {
                ...record,
                gpu: {
                    kind: 'held',
                    mib: heldAtStart,
                    heldMib: held?.mib ?? heldAtStart,
                    seconds: seconds(),
                    pids: [...new Set(held?.apps.map((a) => a.pid) ?? [])]
                }
            };
        }
        await clock.sleep(Math.min(pollMs, gpuUntil - clock.now()), deps.cancel);
    }
}
/** Sends `signal` (0: only asks whether `pid` exists); false when there is no such process. */
function signalled(kill, pid, signal) {
    try {
        kill(pid, signal);
        return true;
    }
    catch (e) {
        // EPERM: it exists, but belongs to someone else
        return e.code === 'EPERM';
    }
}
/** Stops the server the main step launched and says how it went. Never throws for a server that is already gone. */
async function stopAtJobEnd(state, deps) {
    const launch = { startTicks: state.startTicks, bootId: state.bootId, marker: state.runMarker };
    const record = await stopServer({ pid: state.pid, timeoutMs: state.timeoutMs, launch }, deps);
    const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL';
    const clean = exitedOnTerm && record.gpu.kind !== 'held' && record.outcome !== 'refused';
    // why it would not stop may be in its last lines (a hung NCCL teardown, a stuck writer)
    const logTail = exitedOnTerm || state.logFile === undefined || state.logLines === 0
        ? undefined
        : new LogFollower(state.logFile, state.logLines).tail();
    return { record, clean, logTail, logFile: state.logFile };
}

;// CONCATENATED MODULE: ./src/runtime/halter.ts
/**
 * Ends something once, with a typed reason (the wait's `Halt`; for a cancelled job, the signal the runner sent):
 * `signal` cuts short every sleep and request listening to it, `halted` says why. The first `halt` wins; later
 * ones are refused, so that whoever halted it can tell.
 */
class Halter {
    controller = new AbortController();
    signal = this.controller.signal;
    first;
    get halted() {
        return this.first;
    }
    /** Ends it with `halt`; false when it had already ended. */
    halt(halt) {
        if (this.first !== undefined)
            return false;
        this.first = halt;
        this.controller.abort(halt);
        return true;
    }
}

;// CONCATENATED MODULE: ./src/runtime/cancel-signals.ts
/**
 * The signals that cancel a run, and the one way every entry point listens to them. Node's default for each is to
 * die at once: no outputs, no summary, no error, and at the job end a server never stopped.
 */

/**
 * The runner sends SIGINT, then SIGTERM, to a cancelled job's step (or one past its `timeout-minutes`); a terminal
 * sends SIGINT on Ctrl-C; SIGHUP comes when the terminal or ssh session goes, or the runner's service is stopped.
 */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** Listens to the cancelling signals until `release`: each halts `cancel` instead of ending the process. */
function cancelOnSignals() {
    const cancel = new Halter();
    const onSignal = (signal) => void cancel.halt(signal);
    for (const signal of CANCEL_SIGNALS)
        process.on(signal, onSignal);
    return { cancel, release: () => CANCEL_SIGNALS.forEach((signal) => process.off(signal, onSignal)) };
}

;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
// EXTERNAL MODULE: external "os"
var external_os_ = __nccwpck_require__(857);
// EXTERNAL MODULE: ./node_modules/@actions/core/lib/utils.js
var utils = __nccwpck_require__(679);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/command.js


/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function command_issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_.EOL);
}
function issue(name, message = '') {
    command_issueCommand(name, {}, message);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return (0,utils/* toCommandValue */.E)(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return (0,utils/* toCommandValue */.E)(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}
//# sourceMappingURL=command.js.map
;// CONCATENATED MODULE: ./src/action/github.ts
/**
 * What the action tells the runner: outputs, masks, annotations, groups and the job summary, written by
 * @actions/core's own writers. They are imported from core's files rather than from its index, which also
 * loads an OIDC token client and, with it, all of undici, for tokens this action never asks for: about 45 ms
 * between "the server is ready" and the job going on, or 18 MB held for the whole wait had it loaded earlier.
 * The functions below do what core's do, over those writers.
 *
 * The files are named by their path under node_modules because core's package.json exports only its index
 * ("."): `@actions/core/lib/command.js` does not resolve. __tests__/unit/action/github.test.ts fails when core
 * changes that (then import by the package's own path) or when these functions stop writing what core's do.
 */


/**
 * Core's job summary writer, evaluated only when a summary is written ("eager" keeps it in the bundle file): its
 * module reads `fs.promises` as it loads, which brought node:fs/promises and node:readline in before the first
 * probe.
 */
const jobSummary = async () => (await Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 170))).summary;
/**
 * As core.setOutput for each output: the GITHUB_OUTPUT file, or the `set-output` command where there is none
 * (local runs).
 */
const setOutputs = (outputs) => writeFileCommand('OUTPUT', 'set-output', outputs);
/**
 * As core.saveState for each value: the GITHUB_STATE file, which the runner hands to the post step as `STATE_<name>`
 * variables (core.getState), or the `save-state` command where there is none.
 */
const saveState = (values) => writeFileCommand('STATE', 'save-state', values);
/**
 * Core's file writer brings node:crypto (for its delimiters), 3 MB and 5 ms on Node 24: it is evaluated only now,
 * once the wait is over ("eager" keeps it in the one bundle file).
 */
async function writeFileCommand(file, command, values) {
    if (!process.env[`GITHUB_${file}`]) {
        for (const [name, value] of Object.entries(values)) {
            process.stdout.write(EOL);
            issueCommand(command, { name }, value);
        }
        return;
    }
    const { issueFileCommand, prepareKeyValueMessage } = await Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 63));
    for (const [name, value] of Object.entries(values))
        issueFileCommand(file, prepareKeyValueMessage(name, value));
}
/** As core.setSecret. */
const setSecret = (secret) => issueCommand('add-mask', {}, secret);
/** As core.warning, core.notice and core.error with a title (core escapes it), and core.debug. */
const annotate = (kind, message, title) => command_issueCommand(kind, title === undefined ? {} : { title }, message);
/** As core.setFailed, with a title. */
function setFailed(message, title) {
    process.exitCode = 1;
    annotate('error', message, title);
}
/** As core.info. */
const info = (line) => void process.stdout.write(`${line}${external_node_os_namespaceObject.EOL}`);
/** As core.group. */
async function group(name, body) {
    issue('group', name);
    try {
        return await body();
    }
    finally {
        issue('endgroup');
    }
}
/** Lines a server wrote, in a group, stopped from acting as workflow commands (`::stop-commands::`). */
async function untrustedGroup(title, lines, say) {
    await group(title, async () => {
        const token = process.getBuiltinModule('node:crypto').randomUUID();
        info(`::stop-commands::${token}`);
        for (const line of lines)
            say(line);
        info(`::${token}::`);
    });
}

;// CONCATENATED MODULE: ./src/action/post.ts
/**
 * The action's post step (`runs.post`, `post-if: always()`): stops the server the main step launched with
 * `start`, as `stop: job-end` asks, and says how in the log and the job summary. It never fails the job: a server
 * that outlives SIGKILL, or GPU memory not released in time, is a warning.
 */








/**
 * The post step as its entry runs it: whatever goes wrong, in `post` or in a callback of its own (an exception
 * thrown from an event, a rejection no one awaited), is a warning, and the step exits 0: the job-end step never
 * fails the job.
 */
async function runPost(env = process.env) {
    const warn = (e) => {
        process.exitCode = 0;
        try {
            annotate('warning', jobEndErrorText(undefined, e instanceof Error ? e.message : String(e)));
        }
        catch {
            // nothing left to say it with
        }
    };
    process.on('uncaughtException', warn);
    process.on('unhandledRejection', warn);
    try {
        await post(env);
    }
    catch (e) {
        warn(e);
    }
    process.exitCode = 0;
}
async function post(env = process.env) {
    // as core.getState reads what the main step saved
    let state;
    try {
        state = readJobEndState((name) => (env[`STATE_${name}`] ?? '').trim());
    }
    catch (e) {
        // a value the main step did not write: refused whole, nothing signalled, and still no failure of the job
        if (e instanceof JobEndStateError)
            return void annotate('warning', refusedStateText(e));
        throw e;
    }
    if (state === undefined)
        return void annotate('debug', NOTHING_TO_STOP);
    // A cancel must not leave the server running (Node's default on SIGTERM, SIGINT or SIGHUP is to die at once): the
    // stop goes on without waiting, SIGKILL at once, and says so.
    const { cancel, release } = cancelOnSignals();
    try {
        const end = await stopAtJobEnd(state, {
            clock: systemClock,
            gpu: () => gpuSnapshot({ env, timeoutMs: 5_000 }),
            cancel: cancel.signal
        });
        for (const line of stopLines(end.record)) {
            if (line.level === 'info')
                info(line.text);
            else
                annotate(line.level, line.text);
        }
        const cancelledBy = cancel.halted;
        if (cancelledBy !== undefined)
            annotate('warning', jobEndCancelledText(cancelledBy));
        if (end.logTail !== undefined)
            await untrustedGroup(logTailTitle(end.logTail, end.logFile), end.logTail.map((l) => `${l.number}: ${l.text}`), info);
        // the stop is done and said: a summary that cannot be written is no failure to stop
        if (env.GITHUB_STEP_SUMMARY)
            await (await jobSummary())
                .addRaw(jobEndSummary(end, cancelledBy))
                .write()
                .catch((e) => annotate('warning', jobEndSummaryErrorText(e.message)));
    }
    catch (e) {
        annotate('warning', jobEndErrorText(state.pid, e.message));
    }
    finally {
        release();
    }
}


/***/ }),

/***/ 661:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _action_post_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(628);
/* harmony import */ var _runtime_closed_pipes_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(206);


(0,_runtime_closed_pipes_js__WEBPACK_IMPORTED_MODULE_1__/* .dropOutputToClosedPipes */ .D)([process.stdout, process.stderr]);
await (0,_action_post_js__WEBPACK_IMPORTED_MODULE_0__/* .runPost */ .a)();

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 206:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   D: () => (/* binding */ dropOutputToClosedPipes)
/* harmony export */ });
/**
 * A reader that leaves early (`wait-for-model \u2026 2>&1 | head -1`) closes the pipe under stdout or stderr. The
 * next write then fails with EPIPE, which Node reports as an 'error' event on the stream: with no listener,
 * an uncaught exception that prints a stack trace and ends the process with status 1, although the server may
 * be ready. The reader has what it wanted, so the rest of that stream's output is dropped (a destroyed stream
 * discards later writes without another event) and the run ends with its own exit status.
 */
function dropOutputToClosedPipes(streams) {
    for (const stream of streams)
        stream.on('error', (e) => {
            // anything else is a real fault, left to fail the run as before
            if (e.code !== 'EPIPE')
                throw e;
        });
}


/***/ }),

/***/ 896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 63:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  issueFileCommand: () => (/* binding */ issueFileCommand),
  prepareKeyValueMessage: () => (/* binding */ prepareKeyValueMessage)
});

;// CONCATENATED MODULE: external "crypto"
const external_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");
// EXTERNAL MODULE: external "fs"
var external_fs_ = __nccwpck_require__(896);
// EXTERNAL MODULE: external "os"
var external_os_ = __nccwpck_require__(857);
// EXTERNAL MODULE: ./node_modules/@actions/core/lib/utils.js
var utils = __nccwpck_require__(679);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/file-command.js
// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */




function issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!external_fs_.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    external_fs_.appendFileSync(filePath, `${(0,utils/* toCommandValue */.E)(message)}${external_os_.EOL}`, {
        encoding: 'utf8'
    });
}
function prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${external_crypto_namespaceObject.randomUUID()}`;
    const convertedValue = (0,utils/* toCommandValue */.E)(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_.EOL}${convertedValue}${external_os_.EOL}${delimiter}`;
}
//# sourceMappingURL=file-command.js.map

/***/ }),

/***/ 170:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   SUMMARY_DOCS_URL: () => (/* binding */ SUMMARY_DOCS_URL),
/* harmony export */   SUMMARY_ENV_VAR: () => (/* binding */ SUMMARY_ENV_VAR),
/* harmony export */   markdownSummary: () => (/* binding */ markdownSummary),
/* harmony export */   summary: () => (/* binding */ summary)
/* harmony export */ });
/* harmony import */ var os__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(857);
/* harmony import */ var fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(896);
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = fs__WEBPACK_IMPORTED_MODULE_1__.promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
const SUMMARY_DOCS_URL = 'https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return __awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, fs__WEBPACK_IMPORTED_MODULE_1__.constants.R_OK | fs__WEBPACK_IMPORTED_MODULE_1__.constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return __awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return __awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(os__WEBPACK_IMPORTED_MODULE_0__.EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
/**
 * @deprecated use `core.summary`
 */
const markdownSummary = _summary;
const summary = _summary;
//# sourceMappingURL=summary.js.map

/***/ }),

/***/ 679:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E: () => (/* binding */ toCommandValue)
/* harmony export */ });
/* unused harmony export toCommandProperties */
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}
//# sourceMappingURL=utils.js.map

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(661);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
