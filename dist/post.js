import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 603:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  b: () => (/* binding */ post)
});

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: ./src/gpu/nvidia-smi.ts
/**
 * The GPUs and what holds their memory, from `nvidia-smi`: its CSV queries (formats as seen on an H200; see the
 * research notes), run with a time limit. Where nvidia-smi is missing, fails or hangs the answer is a structured
 * `unavailable`, never an error: a machine without a GPU is no reason to fail a wait.
 */

const GPU_QUERY = ['--query-gpu=index,uuid,name,memory.used,memory.total', '--format=csv,noheader,nounits'];
const APPS_QUERY = [
    '--query-compute-apps=pid,process_name,used_memory,gpu_uuid',
    '--format=csv,noheader,nounits'
];
/** The GPUs and the compute processes on them, in two calls of nvidia-smi. */
async function gpuSnapshot(options = {}) {
    const gpuRun = await runNvidiaSmi(GPU_QUERY, options);
    if (gpuRun.kind !== 'ok')
        return gpuRun;
    const appsRun = await runNvidiaSmi(APPS_QUERY, options);
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
function runNvidiaSmi(args, { env = process.env, timeoutMs = 10_000, command = 'nvidia-smi' }) {
    return new Promise((resolve) => {
        const child = (0,external_node_child_process_namespaceObject.spawn)(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d.toString()));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            resolve({ kind: 'unavailable', why: 'timeout' });
        }, timeoutMs);
        child.once('error', (e) => {
            clearTimeout(timer);
            resolve(e.code === 'ENOENT'
                ? { kind: 'unavailable', why: 'not-found' }
                : { kind: 'unavailable', why: 'failed', detail: e.message });
        });
        child.once('close', (code) => {
            clearTimeout(timer);
            // nvidia-smi prints its own failure ("NVIDIA-SMI has failed because it couldn't communicate \u2026") on stdout
            if (code === 0)
                resolve({ kind: 'ok', stdout });
            else
                resolve({ kind: 'unavailable', why: 'failed', detail: firstLine(stdout.trim() === '' ? stderr : stdout) });
        });
    });
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

;// CONCATENATED MODULE: ./src/runtime/clock.ts
/** performance.now() counts from the process's start, which is the step's start for the action. */
const systemClock = {
    now: () => performance.now(),
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
function clock_formatDuration(ms) {
    if (ms < 1000)
        return `${Math.round(ms)}ms`;
    if (ms < 59_950)
        return `${clock_seconds(ms)}s`;
    const totalS = Math.floor(ms / 1000);
    const h = Math.floor(totalS / 3600);
    const m = Math.floor((totalS % 3600) / 60);
    const s = totalS % 60;
    return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s).padStart(2, '0')}s`;
}
/** Seconds with one decimal, as the outputs give them. */
const clock_seconds = (ms) => (Math.round(ms / 100) / 10).toFixed(1);

;// CONCATENATED MODULE: ./src/report/profile-report.ts

const s1 = (seconds) => `${seconds.toFixed(1)}s`;
const about = (ms) => (ms < 1000 ? 'almost done' : `about ${formatDuration(ms)} left`);
/** `loading weights 45% (29/64 shards), about 1m10s left; ready in about 4m30s going by earlier runs`. */
function progressText(phase, phaseLeftMs, against) {
    const p = phase.progress?.last;
    const parts = [
        p === undefined
            ? `${phase.name} for ${formatDuration(phase.inPhaseMs)}`
            : `${phase.name} ${Math.floor((p.n / p.total) * 100)}% (${p.n}/${p.total} ${phase.progress?.unit})`
    ];
    if (phaseLeftMs !== undefined)
        parts[0] += `, ${about(phaseLeftMs)}`;
    if (against !== undefined)
        parts.push(etaText(against));
    return parts.join('; ');
}
/**
 * `ready in about 4m30s going by earlier runs`; once past that, how much slower: `1m05s slower than earlier runs,
 * which were ready after 40.0s`, or for a phase without a count `12.0s longer than its usual 30.0s in earlier runs`.
 */
function etaText(e) {
    if (e.kind === 'ready-in')
        return `ready in about ${formatDuration(Math.max(e.ms, 1000))} going by earlier runs`;
    if (e.phase !== undefined)
        return `${formatDuration(e.overMs)} longer than its usual ${s1(e.usualMs / 1000)} in earlier runs`;
    return `${formatDuration(e.overMs)} slower than earlier runs, which were ready after ${s1(e.usualMs / 1000)}`;
}
/** `now loading weights (initializing took 12.3s)`. */
const phaseChangeText = (name, previous) => `now ${name}${previous ? ` (${previous.name} took ${s1(previous.seconds)}${previous.printed ? ' by its own count' : ''})` : ''}`;
const BLOCKS = (/* unused pure expression or super */ null && (['', '\u258f', '\u258e', '\u258d', '\u258c', '\u258b', '\u258a', '\u2589']));
const BAR_WIDTH = 24;
/** A bar of `fraction` \u00d7 BAR_WIDTH cells, in eighths of a cell (any time at all shows as one eighth). */
function bar(fraction) {
    const f = Math.min(1, Math.max(0, fraction));
    const eighths = f > 0 ? Math.max(1, Math.round(f * BAR_WIDTH * 8)) : 0;
    return '\u2588'.repeat(Math.floor(eighths / 8)) + BLOCKS[eighths % 8];
}
const clock = (totalSeconds) => {
    const t = Math.max(0, Math.round(totalSeconds));
    return [Math.floor(t / 3600), Math.floor(t / 60) % 60, t % 60].map((n) => String(n).padStart(2, '0')).join(':');
};
/** A Mermaid gantt chart of the phases end to end (GitHub draws it in job summaries). */
function phaseGantt(phases, engineLabel) {
    const total = phases.reduce((sum, p) => sum + Math.max(1, p.seconds), 0);
    const lines = [
        '```mermaid',
        'gantt',
        `  title ${engineLabel} startup`,
        '  dateFormat HH:mm:ss',
        `  axisFormat ${total < 3600 ? '%M:%S' : '%H:%M'}`,
        `  section ${engineLabel}`
    ];
    let at = 0;
    for (const p of phases) {
        // A bar is at least a second wide so that it shows; the label carries the exact figure.
        const width = Math.max(1, p.seconds);
        lines.push(`  ${`${p.name} ${s1(p.seconds)}`.replace(/[:;#]/g, ' ')} : ${clock(at)}, ${clock(at + width)}`);
        at += width;
    }
    lines.push('```');
    return lines.join('\n');
}
/**
 * The summary's phase section: the chart, and a table of the numbers with proportional bars (and the usual
 * figures when there is history). Figures the engine printed itself are marked.
 */
function profile_report_phaseMarkdown(phases, engineLabel, usual) {
    if (phases.length === 0)
        return '';
    const longest = Math.max(...phases.map((p) => p.seconds), 0.001);
    const total = phases.reduce((sum, p) => sum + p.seconds, 0);
    const withUsual = usual !== undefined && usual.size > 0;
    // A chart of one bar (a run that failed in its first phase) shows nothing the table does not.
    const lines = ['#### Startup phases', '', ...(phases.length > 1 ? [phaseGantt(phases, engineLabel), ''] : [])];
    lines.push(withUsual ? '| phase | seconds | usual | share | |' : '| phase | seconds | share | |', withUsual ? '|---|---:|---:|---:|---|' : '|---|---:|---:|---|');
    for (const p of phases) {
        const share = `${total > 0 ? Math.round((p.seconds / total) * 100) : 0}%`;
        const seconds = `${p.seconds.toFixed(1)}${p.printed ? ' *' : ''}`;
        const u = usual?.get(p.name);
        const cells = withUsual
            ? [p.name, seconds, u === undefined ? '\u2014' : u.toFixed(1), share, bar(p.seconds / longest)]
            : [p.name, seconds, share, bar(p.seconds / longest)];
        lines.push(`| ${cells.join(' | ')} |`);
    }
    if (phases.some((p) => p.printed))
        lines.push('', `\\* as ${engineLabel} reported it; the other figures are measured from its log.`);
    return `${lines.join('\n')}\n`;
}
/** The warning for a startup slower than usual. */
function regressionText(r) {
    const grew = r.grewMost
        ? `; ${r.grewMost.name} grew most: ${s1(r.grewMost.seconds)} against ${s1(r.grewMost.usual)}`
        : '';
    return (`Startup took ${s1(r.seconds)}, ${r.percent.toFixed(1)}% over the median of ${s1(r.expectedSeconds)} ` +
        `of the last ${r.runs} ready run${r.runs === 1 ? '' : 's'}${grew}.`);
}
const value = (v) => (v === undefined ? 'unset' : JSON.stringify(v));
/** `NCCL_PROTO was "LL" in the last 5 runs, now unset`. */
const driftText = (d) => `${d.name} was ${value(d.was)} in the last ${d.runs === 1 ? 'run' : `${d.runs} runs`}, now ${value(d.now)}`;
function driftWarning(drifts) {
    return `The server's environment changed since the previous run with this history key: ${drifts.map(driftText).join('; ')}.`;
}

;// CONCATENATED MODULE: ./src/report/wait-report.ts


const probes = (n) => `${n} probe${n === 1 ? '' : 's'}`;
/** `startup`: where the server's own startup is, from its log (a still-waiting line leads with it). */
function eventLine(event, startup) {
    const at = formatDuration(event.elapsedMs);
    if (event.type === 'change')
        return `${at}: ${event.assessment.summary}`;
    if (event.type === 'lost')
        return `${at}: the server stopped answering (${event.assessment.summary}) after it had answered: crashed or restarting?`;
    if (startup !== undefined)
        return `${at}: ${startup}; the server still answers: ${event.assessment.summary} (${probes(event.attempt)} so far)`;
    return `${at}: still waiting (${probes(event.attempt)} so far); the server still answers: ${event.assessment.summary}`;
}
/** A debug line for one probe: what came back, the body quoted (so its line breaks stay escaped). */
function probeLine(result) {
    if (result.kind === 'error')
        return `probe: ${result.code} (${result.message})${result.status === undefined ? '' : ` after HTTP ${result.status}`}`;
    const facts = [
        `${Buffer.byteLength(result.body)} bytes${result.truncated ? ' (cut at 1 MiB)' : ''}`,
        result.contentType && `content-type ${result.contentType}`,
        result.retryAfterMs !== undefined && `Retry-After ${formatDuration(result.retryAfterMs)}`,
        result.redirectedTo && `after redirects, from ${result.redirectedTo}`
    ].filter(Boolean);
    return `probe: HTTP ${result.status}, ${facts.join(', ')}: ${JSON.stringify(result.body.slice(0, 200))}`;
}
/**
 * Makes text the runner cannot take for a workflow command: server text (a model id, an error message)
 * could otherwise carry a line break followed by `::set-output` or `::stop-commands`, or a `##[` command,
 * which the runner reads anywhere in a line. The runner also breaks lines at a lone carriage return.
 */
function commandSafe(text) {
    return text.replace(/##\[/g, '## [').replace(/^(\s*)::/gm, '$1: :');
}
const INSECURE_TLS_WARNING = "insecure-tls is on: the server's certificate is not checked, so anything on the way to it could answer in its place";
/** What readiness means for these settings, in words. */
function describeExpectation({ expect, url }, subject = url.href) {
    const parts = [
        `${subject} to answer with an accepted status (${expect.status.map(([lo, hi]) => (lo === hi ? lo : `${lo}-${hi}`)).join(',')})`
    ];
    if (expect.model !== undefined)
        parts.push(`list model "${expect.model}"`);
    if (expect.match !== undefined)
        parts.push(`contain "${expect.match}"`);
    if (expect.matchRegex !== undefined)
        parts.push(`match ${String(expect.matchRegex)}`);
    return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
function finalLine(outcome) {
    if (outcome.ready) {
        const model = outcome.last?.modelId ? `; model "${outcome.last.modelId}"` : '';
        return `Ready after ${formatDuration(outcome.elapsedMs)} (${probes(outcome.attempts)})${model}: ${outcome.last?.summary ?? ''}`;
    }
    return `Not ready after ${formatDuration(outcome.elapsedMs)} (${probes(outcome.attempts)}): ${outcome.reason}`;
}
/** The message a failed wait ends with: what was expected, what the server last said, how long and how often. */
function failureMessage(outcome, ctx) {
    const last = outcome.last;
    const waited = `${formatDuration(outcome.elapsedMs)} and ${probes(outcome.attempts)}`;
    if (outcome.reason === 'unauthorized' || outcome.reason === 'tls' || outcome.reason === 'ambiguous-model') {
        return `Stopped after ${waited}: ${last?.detail ?? outcome.reason}.`;
    }
    if (outcome.stop) {
        const lines = [sentence(`Stopped after ${waited}, before the server was ready: ${outcome.stop.detail}`)];
        if (last !== undefined)
            lines.push(sentence(`Last answer: ${last.summary}`));
        return lines.join('\n');
    }
    const lines = [
        outcome.reason === 'generation-failed'
            ? sentence(`Timed out after ${waited} (timeout ${formatDuration(ctx.timeoutMs)}): ${last?.detail ?? 'the generation request failed'}`)
            : `Timed out after ${waited} (timeout ${formatDuration(ctx.timeoutMs)}) waiting for ${describeExpectation(ctx)}.`
    ];
    if (last === undefined)
        return lines[0];
    lines.push(sentence(`Last answer: ${last.summary}`));
    if (last.models !== undefined && ctx.expect.model !== undefined) {
        lines.push(last.models.length ? `The server lists: ${last.models.join(', ')}.` : 'The server lists no models.');
    }
    if (last.excerpt)
        lines.push(`Body (first 200 characters): ${last.excerpt}`);
    if (outcome.firstResponseMs === undefined)
        lines.push('The server never answered over HTTP.');
    return lines.join('\n');
}
/** Ends text with a full stop unless it already ends a sentence (server messages often do). */
const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);
function outputs(outcome) {
    const server = outcome.server;
    const profile = outcome.profile;
    return {
        ready: String(outcome.ready),
        'elapsed-seconds': seconds(outcome.elapsedMs),
        attempts: String(outcome.attempts),
        'status-code': outcome.last?.status === undefined ? '' : String(outcome.last.status),
        models: JSON.stringify(outcome.models),
        'model-id': outcome.last?.modelId ?? '',
        'first-response-seconds': outcome.firstResponseMs === undefined ? '' : seconds(outcome.firstResponseMs),
        reason: outcome.reason,
        pid: server?.pid === undefined ? '' : String(server.pid),
        'log-file': server?.logFile ?? '',
        'startup-seconds': server?.startupMs === undefined ? '' : seconds(server.startupMs),
        'generation-seconds': outcome.generationMs === undefined ? '' : seconds(outcome.generationMs),
        results: JSON.stringify(outcome.results.map(resultRecord)),
        phases: JSON.stringify((outcome.profile?.phases ?? []).map((p) => ({ name: p.name, seconds: p.seconds }))),
        'expected-seconds': profile?.expectedSeconds === undefined ? '' : profile.expectedSeconds.toFixed(1),
        'regression-percent': profile?.regressionPercent === undefined ? '' : profile.regressionPercent.toFixed(1)
    };
}
/** One endpoint's entry in the `results` output. */
function resultRecord(r) {
    return {
        url: r.url.href,
        ready: r.ready,
        'elapsed-seconds': Number(seconds(r.elapsedMs)),
        'status-code': r.last?.status ?? null,
        'model-id': r.last?.modelId ?? null,
        reason: r.reason
    };
}
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
/** The job summary in GitHub-flavoured Markdown. */
function summaryMarkdown(outcome, ctx) {
    const out = outputs(outcome);
    const rows = [
        ['Result', outcome.ready ? '\u2705 ready' : `\u274c not ready (${outcome.reason})`],
        ['Endpoint', `\`${ctx.url.href}\``],
        ['Elapsed', `${out['elapsed-seconds']} s`],
        ['Probes', out.attempts],
        ['First HTTP answer', out['first-response-seconds'] === '' ? 'never' : `${out['first-response-seconds']} s`],
        ['Listed models', outcome.models.length ? outcome.models.map((m) => `\`${m}\``).join(', ') : 'none'],
        [
            'Matched model',
            out['model-id'] === '' ? (ctx.expect.model === undefined ? '\u2014' : 'none') : `\`${out['model-id']}\``
        ]
    ];
    const server = outcome.server;
    if (out['generation-seconds'] !== '')
        rows.push(['Generation request', `${out['generation-seconds']} s`]);
    if (server?.pid !== undefined)
        rows.push(['Server process', `pid ${server.pid}`]);
    if (out['startup-seconds'] !== '')
        rows.push(['Startup (from the process start)', `${out['startup-seconds']} s`]);
    if (server?.logFile !== undefined)
        rows.push(['Server log', `\`${server.logFile}\``]);
    if (outcome.profile?.engine !== undefined)
        rows.push(['Engine', outcome.profile.engine]);
    if (out['expected-seconds'] !== '') {
        const against = out['regression-percent'] === ''
            ? ''
            : ` (this run: ${Number(out['regression-percent']) > 0 ? '+' : ''}${out['regression-percent']}%)`;
        rows.push(['Usual startup (median of earlier runs)', `${out['expected-seconds']} s${against}`]);
    }
    const lines = ['### wait-for-model', '', '| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), ''];
    if (outcome.results.length > 1) {
        lines.push(`#### Endpoints (${outcome.results.filter((r) => r.ready).length} of ${outcome.results.length} ready)`, '');
        lines.push('| endpoint | result | elapsed | status | model |', '|---|---|---:|---:|---|');
        for (const r of outcome.results) {
            const result = r.ready ? '\u2705 ready' : `\u274c ${r.reason}`;
            lines.push(`| \`${cell(r.url.href)}\` | ${result} | ${seconds(r.elapsedMs)} s | ${r.last?.status ?? '\u2014'} | ${cell(r.last?.modelId ?? '\u2014')} |`);
        }
        lines.push('', `The rows above describe each endpoint; the table at the top, and the timeline, describe ${outcome.url.href}.`, '');
    }
    lines.push('#### Timeline', '', '| at | the server answered |', '|---:|---|');
    for (const t of outcome.timeline) {
        lines.push(`| ${formatDuration(t.elapsedMs)} | ${t.lost ? '\u26a0\ufe0f stopped answering (crashed or restarting?): ' : ''}${cell(t.summary)} |`);
    }
    const profile = outcome.profile;
    for (const warning of [profile?.regression, profile?.drift])
        if (warning !== undefined)
            lines.push('', `> \u26a0\ufe0f ${warning}`);
    if (profile !== undefined && profile.phases.length > 0)
        lines.push('', phaseMarkdown(profile.phases, profile.engine ?? 'Server', profile.usual).trimEnd());
    if (server?.env !== undefined || server?.envUnavailable !== undefined) {
        lines.push('', '#### Server environment', '');
        if (server.envUnavailable !== undefined)
            lines.push(server.envUnavailable);
        else
            lines.push('| variable | value |', '|---|---|', ...(server.env ?? []).map((e) => `| \`${cell(e.name)}\` | ${e.value === undefined ? '*not set*' : `\`${cell(e.value)}\``} |`));
    }
    if (!outcome.ready)
        lines.push('', fenced(failureMessage(outcome, ctx)));
    if (!outcome.ready && server?.logTail !== undefined) {
        lines.push('', `#### ${logTailTitle(server.logTail, server.logFile)}`, '', fenced(server.logTail.map((l) => `${l.number}: ${l.text}`).join('\n')));
    }
    return `${lines.join('\n')}\n`;
}
function logTailTitle(tail, file = 'the log') {
    return tail.length === 0 ? `${file} is empty` : `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${file}`;
}
/** A code block whose fence no line of the text can close. */
function fenced(text) {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}\n${text}\n${fence}`;
}
/** The `env-report` lines for the log. */
function envLines(server) {
    if (server.envUnavailable !== undefined)
        return [server.envUnavailable];
    return (server.env ?? []).map((e) => (e.value === undefined ? `${e.name}: not set` : `${e.name}=${e.value}`));
}
/** Replaces every secret in `text`; the CLI has no runner to mask for it, and the action masks twice. */
function redact(text, secrets) {
    return secrets.reduce((t, s) => (s.length >= 3 ? t.split(s).join('***') : t), text);
}

;// CONCATENATED MODULE: ./src/report/lifecycle-report.ts

const list = (items) => items.map((i) => `"${i}"`).join(', ');
/** A `model` several listed ids contain, none of them exactly: stable words, so the summary is stable. */
function ambiguousModelText(model, candidates) {
    return {
        summary: `"${model}" fits ${candidates.length} listed models`,
        detail: `"${model}" fits ${candidates.length} listed models and is none of them exactly: ${list(candidates)}. ` +
            'Give the exact id as "model" (an id ending with /<model> or equal to it ignoring case also counts as exact)'
    };
}
/** A model the server lists but loads only when asked (llama.cpp's router mode, LM Studio). */
const unloadedModelText = (id) => `"${id}" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)`;
const lifecycle_report_s1 = (seconds) => `${seconds.toFixed(1)}s`;
const pidList = (pids) => `${pids.length === 1 ? 'pid' : 'pids'} ${pids.join(', ')}`;
/** How a server was stopped (`wait-for-model stop`, the job-end step): what was sent, how it exited, its GPU memory. */
function stopLines(r) {
    if (r.outcome === 'not-running')
        return [{ level: 'info', text: `Process ${r.pid} is not running: nothing to stop.` }];
    const what = r.scope === 'group'
        ? `the server's process group ${r.pid} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
        : `the server ${r.pid} and its child processes (${r.pids.length} in all)`;
    const lines = [];
    const how = r.exitCode !== undefined && r.exitCode !== null
        ? `, exit code ${r.exitCode}`
        : r.exitSignal
            ? `, ended by ${r.exitSignal}`
            : '';
    if (r.outcome === 'exited') {
        lines.push({
            level: 'info',
            text: r.signal === 'SIGKILL'
                ? `Stopped ${what}: it did not exit after SIGTERM, so SIGKILL; gone ${lifecycle_report_s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
                : `Stopped ${what}: SIGTERM, gone after ${lifecycle_report_s1(r.secondsToExit ?? 0)}${how}.`
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
            text: `Its GPU memory (${g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show'}) was released ${lifecycle_report_s1(g.seconds)} after SIGTERM.`
        });
    else if (g.kind === 'held')
        lines.push({
            level: 'warning',
            text: `Its GPU memory was not released: ${g.mib > 0 ? `${g.heldMib} of ${g.mib} MiB` : 'an amount nvidia-smi does not show'} still held ${lifecycle_report_s1(g.seconds)} after SIGTERM` +
                `${g.pids.length ? ` (${pidList(g.pids)})` : ''}; the next job on this machine may run out of GPU memory.`
        });
    else if (g.kind === 'none')
        lines.push({ level: 'debug', text: 'Its processes held no GPU memory.' });
    else
        lines.push({ level: 'debug', text: `GPU memory not looked at (nvidia-smi: ${g.why}).` });
    return lines;
}
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
function wrongServerText(o, watchedPid) {
    return (`Port ${o.port} is answered by ${o.listeners.map(listenerText).join('; ')}, not by the server being watched ` +
        `(pid ${watchedPid}) or its child processes: an earlier server still holds the port, or the watched one ` +
        'listens elsewhere. Its answers say nothing about the server being waited for');
}
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
/** The job summary's section on the job-end stop: how it stopped, how long it took, its GPU memory, and why not cleanly. */
function jobEndSummary(end) {
    const r = end.record;
    const g = r.gpu;
    const rows = [
        ['Server process', `pid ${r.pid} (${r.scope === 'group' ? 'its process group' : 'with its child processes'})`],
        [
            'Result',
            r.outcome === 'not-running'
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
        rows.push(['Gone after SIGTERM', `${lifecycle_report_s1(r.secondsToExit)}`]);
    if (g.kind === 'released') {
        rows.push(['GPU memory released after SIGTERM', lifecycle_report_s1(g.seconds)]);
        rows.push(['GPU memory released', g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show']);
    }
    else if (g.kind === 'held')
        rows.push(['GPU memory', `\u26a0\ufe0f ${g.heldMib} of ${g.mib} MiB still held after ${lifecycle_report_s1(g.seconds)}`]);
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

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:string_decoder"
const external_node_string_decoder_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:string_decoder");
;// CONCATENATED MODULE: ./src/server/log-follower.ts
/** Follows a server's log file: the lines appended since the last look, numbered, and the last lines kept for the tail. */


/** A line longer than this is cut (a progress bar redrawn with \r for an hour is one line). */
const MAX_LINE_CHARS = 2000;
const CHUNK_BYTES = 64 * 1024;
class LogFollower {
    path;
    keep;
    offset = 0;
    lineCount = 0;
    pending = '';
    decoder = new external_node_string_decoder_namespaceObject.StringDecoder('utf8');
    recent = [];
    /**
     * `keep`: how many last lines to hold for `tail`. Unless `fromStart` (the log of a server this process has
     * just started, where every line is new however fast it came), what the file already holds is read now,
     * counted and kept for the tail (and handed to `earlier`) but never returned by `poll`: only lines written from
     * now on are new. `fromStart` with `skipBytes`: the server appends to a log that already held that much (an
     * earlier run's), which is only counted, so that line numbers are the file's.
     */
    constructor(path, keep, { fromStart = false, skipBytes = 0, earlier } = {}) {
        this.path = path;
        this.keep = keep;
        if (fromStart) {
            if (skipBytes > 0)
                this.read(undefined, skipBytes);
            this.recent.length = 0;
            return;
        }
        const old = [];
        this.read(earlier && old);
        earlier?.(old);
    }
    /** The complete lines appended since the last call. */
    poll() {
        const fresh = [];
        this.read(fresh);
        return fresh;
    }
    /** Reads what was appended, up to the byte offset `until` when given. */
    read(into, until = Infinity) {
        let fd;
        try {
            fd = (0,external_node_fs_namespaceObject.openSync)(this.path, 'r');
        }
        catch {
            return; // not written yet
        }
        try {
            if ((0,external_node_fs_namespaceObject.statSync)(this.path).size < this.offset)
                this.restart(); // truncated or replaced
            const buffer = Buffer.alloc(CHUNK_BYTES);
            for (;;) {
                const n = (0,external_node_fs_namespaceObject.readSync)(fd, buffer, 0, Math.min(CHUNK_BYTES, until - this.offset), this.offset);
                if (n === 0)
                    break;
                this.offset += n;
                this.split(this.pending + this.decoder.write(buffer.subarray(0, n)), into);
            }
        }
        finally {
            (0,external_node_fs_namespaceObject.closeSync)(fd);
        }
    }
    /** The last `keep` lines, including an unfinished last line; undefined when the file does not exist. */
    tail() {
        this.poll();
        try {
            (0,external_node_fs_namespaceObject.statSync)(this.path);
        }
        catch {
            return undefined;
        }
        const unfinished = this.pending === '' ? [] : [{ number: this.lineCount + 1, text: clip(this.pending) }];
        return this.keep === 0 ? [] : [...this.recent, ...unfinished].slice(-this.keep);
    }
    split(text, into) {
        const parts = text.split('\n');
        this.pending = parts.pop() ?? '';
        if (this.pending.length > MAX_LINE_CHARS * 8)
            this.pending = this.pending.slice(0, MAX_LINE_CHARS * 8);
        for (const raw of parts) {
            const line = { number: ++this.lineCount, text: clip(raw.replace(/\r$/, '')) };
            into?.push(line);
            this.recent.push(line);
            if (this.recent.length > this.keep)
                this.recent.shift();
        }
    }
    restart() {
        this.offset = 0;
        this.lineCount = 0;
        this.pending = '';
        this.decoder = new external_node_string_decoder_namespaceObject.StringDecoder('utf8');
    }
}
const clip = (text) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}\u2026` : text);

;// CONCATENATED MODULE: ./src/server/proc.ts
/** Reading Linux's /proc: one process's stat line, the process ids, a command line. Undefined or empty without it. */

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
        const args = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        if (args !== '')
            return args.length > MAX_COMMAND ? `${args.slice(0, MAX_COMMAND)}\u2026` : args;
        return `[${readFileSync(`${proc}/${pid}/comm`, 'utf8').trim()}]`;
    }
    catch {
        return '';
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
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const os = process.getBuiltinModule('node:os');
    const addresses = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.toLowerCase()));
    const local = host === 'localhost' ||
        host.endsWith('.localhost') ||
        host === hostName.toLowerCase() ||
        /^127\./.test(host) ||
        host === '::1' ||
        host === '0.0.0.0' ||
        host === '::' ||
        addresses.includes(host);
    if (!local)
        return undefined;
    return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
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
    const leader = procStat(options.pid, proc);
    const inGroup = () => proc_procPids(proc).filter((p) => procStat(p, proc)?.pgrp === options.pid);
    // A group outlives its leader (workers left behind by a server that crashed), and Linux reuses no pid that
    // still names a group: with the leader gone, processes in group `pid` are that server's.
    // never the group this process is in: that would stop the stopper (and the runner's step with it)
    const own = options.pid === procStat(process.pid, proc)?.pgrp;
    const scope = !own && (leader === undefined ? inGroup().length > 0 : leader.pgrp === options.pid) ? 'group' : 'tree';
    const members = () => {
        const tree = [...processTree(proc, options.pid)];
        const group = scope === 'group' ? inGroup() : [];
        return [...new Set([...tree, ...group])].flatMap((pid) => {
            const stat = procStat(pid, proc);
            // without /proc only the pid itself can be asked about
            if (stat === undefined)
                return pid === options.pid && signalled(kill, pid, 0) ? [{ pid }] : [];
            return stat.state === 'Z' ? [] : [{ pid, startTicks: stat.startTicks }];
        });
    };
    const initial = members();
    const base = { pid: options.pid, scope, pids: initial.map((m) => m.pid) };
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
        if (scope === 'group')
            signalled(kill, -options.pid, signal);
        else
            for (const pid of alive())
                signalled(kill, pid, signal);
    };
    const waitGone = async (ms) => {
        const until = clock.now() + ms;
        for (;;) {
            if (alive().length === 0)
                return true;
            if (clock.now() >= until)
                return false;
            await clock.sleep(Math.min(pollMs, until - clock.now()));
        }
    };
    const termAt = clock.now();
    const seconds = () => Math.round((clock.now() - termAt) / 100) / 10;
    send('SIGTERM');
    let signal = 'SIGTERM';
    let gone = await waitGone(options.timeoutMs);
    if (!gone) {
        signal = 'SIGKILL';
        send('SIGKILL');
        gone = await waitGone(options.killWaitMs ?? 10_000);
    }
    const secondsToExit = seconds();
    // /proc loses a process a moment before its parent hears of the exit: a few polls for the code
    for (let i = 0; gone && deps.exited !== undefined && exit === undefined && i < 10; i++)
        await clock.sleep(pollMs);
    const exited = {
        signal,
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
        if (clock.now() >= gpuUntil) {
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
        await clock.sleep(Math.min(pollMs, gpuUntil - clock.now()));
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

;// CONCATENATED MODULE: ./src/server/job-end.ts


/** State names, as the runner passes them back: `STATE_<name>`. */
const NAMES = { pid: 'server-pid', timeoutMs: 'stop-timeout-ms', logFile: 'server-log-file', logLines: 'log-lines' };
/** The state to save after the wait, or undefined when the post step has nothing to do. */
function jobEndState(settings, server) {
    // only a server this step launched is this job's to stop: one given by `pid` belongs to whoever started it
    if (settings.start === undefined || settings.stop !== 'job-end' || server?.pid === undefined)
        return undefined;
    return {
        [NAMES.pid]: String(server.pid),
        [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
        [NAMES.logFile]: server.logFile ?? '',
        [NAMES.logLines]: String(settings.logLines)
    };
}
/** Reads the state back (`get` returns '' for a name not saved); undefined when the main step saved none. */
function readJobEndState(get) {
    const pid = Number(get(NAMES.pid));
    if (!Number.isInteger(pid) || pid < 2)
        return undefined;
    const timeoutMs = Number(get(NAMES.timeoutMs));
    const logLines = Number(get(NAMES.logLines));
    return {
        pid,
        timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000,
        logFile: get(NAMES.logFile) || undefined,
        logLines: Number.isInteger(logLines) && logLines >= 0 ? logLines : 50
    };
}
/** Stops the server the main step launched and says how it went. Never throws for a server that is already gone. */
async function stopAtJobEnd(state, deps) {
    const record = await stopServer({ pid: state.pid, timeoutMs: state.timeoutMs }, deps);
    const exitedOnTerm = record.outcome !== 'survived' && record.signal !== 'SIGKILL';
    const clean = exitedOnTerm && record.gpu.kind !== 'held';
    // why it would not stop may be in its last lines (a hung NCCL teardown, a stuck writer)
    const logTail = exitedOnTerm || state.logFile === undefined || state.logLines === 0
        ? undefined
        : new LogFollower(state.logFile, state.logLines).tail();
    return { record, clean, logTail, logFile: state.logFile };
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
// EXTERNAL MODULE: external "fs"
var external_fs_ = __nccwpck_require__(896);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/summary.js
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = external_fs_.promises;
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
                yield access(pathFromEnv, external_fs_.constants.R_OK | external_fs_.constants.W_OK);
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
        return this.addRaw(external_os_.EOL);
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
const markdownSummary = (/* unused pure expression or super */ null && (_summary));
const summary = _summary;
//# sourceMappingURL=summary.js.map
;// CONCATENATED MODULE: ./src/action/github.ts
/**
 * What the action tells the runner: outputs, masks, annotations, groups and the job summary, written by
 * @actions/core's own writers. They are imported from core's files rather than from its index, which also
 * loads an OIDC token client and, with it, all of undici, for tokens this action never asks for: about 45 ms
 * between "the server is ready" and the job going on, or 18 MB held for the whole wait had it loaded earlier.
 * The functions below do what core's do, over those writers.
 */




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
/** As core.warning, core.notice, core.debug and core.error, without file and line properties. */
const annotate = (kind, message) => command_issueCommand(kind, {}, message);
/** As core.setFailed. */
function setFailed(message) {
    process.exitCode = 1;
    annotate('error', message);
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






async function post(env = process.env) {
    // as core.getState reads what the main step saved
    const state = readJobEndState((name) => (env[`STATE_${name}`] ?? '').trim());
    if (state === undefined)
        return void annotate('debug', NOTHING_TO_STOP);
    try {
        const end = await stopAtJobEnd(state, {
            clock: systemClock,
            gpu: () => gpuSnapshot({ env, timeoutMs: 5_000 })
        });
        for (const line of stopLines(end.record)) {
            if (line.level === 'info')
                info(line.text);
            else
                annotate(line.level, line.text);
        }
        if (end.logTail !== undefined)
            await untrustedGroup(logTailTitle(end.logTail, end.logFile), end.logTail.map((l) => `${l.number}: ${l.text}`), info);
        if (env.GITHUB_STEP_SUMMARY)
            await summary.addRaw(jobEndSummary(end)).write();
    }
    catch (e) {
        annotate('warning', jobEndErrorText(state.pid, e.message));
    }
}


/***/ }),

/***/ 661:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _action_post_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(603);
/* harmony import */ var _runtime_closed_pipes_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(206);


(0,_runtime_closed_pipes_js__WEBPACK_IMPORTED_MODULE_1__/* .dropOutputToClosedPipes */ .D)([process.stdout, process.stderr]);
await (0,_action_post_js__WEBPACK_IMPORTED_MODULE_0__/* .post */ .b)();

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
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(661);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
