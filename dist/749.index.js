export const id = 749;
export const ids = [749];
export const modules = {

/***/ 4749:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   fleetGate: () => (/* binding */ fleetGate)
/* harmony export */ });
/* harmony import */ var _inputs_fleet_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8405);
/* harmony import */ var _report_progress_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8991);
/* harmony import */ var _runtime_halter_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(1906);
/* harmony import */ var _cancelled_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5165);
/* harmony import */ var _fleet_tally_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4750);
/* harmony import */ var _sequence_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6138);






async function fleetGate(settings, deps) {
    const began = deps.clock.now();
    const members = settings.targets.map((_, i) => (0,_inputs_fleet_js__WEBPACK_IMPORTED_MODULE_0__/* .endpointSettings */ .h6)(settings, i));
    const memberDeps = members.map((m) => endpointDeps(deps, m.targets[0].url));
    const seams = await Promise.all(members.map((m, i) => (0,_sequence_js__WEBPACK_IMPORTED_MODULE_4__/* .serverSeam */ .m)(m, memberDeps[i])));
    // Every endpoint's pre-flight before any server starts: a port already held, or GPUs taken with `gpu-check:
    // fail`, refuses the whole fleet, and nothing is started.
    const looked = await Promise.allSettled(seams.map((seam) => seam.preflight()));
    const early = deps.cancel?.halted;
    const refused = looked.findIndex((r) => r.status === 'rejected' || r.value !== undefined);
    // nothing is launched: whatever every pre-flight opened (an engine's socket) is closed
    if (early !== undefined || refused >= 0)
        seams.forEach((seam) => seam.abandon());
    if (early !== undefined)
        return (0,_cancelled_js__WEBPACK_IMPORTED_MODULE_2__/* .cancelledBeforeWait */ .yl)(settings, early, deps.clock.now() - (deps.startedAt ?? began));
    const failed = looked[refused];
    // an input error of one endpoint's (no such container) is the fleet's
    if (failed?.status === 'rejected')
        throw failed.reason;
    if (failed !== undefined)
        return refusedFleet(settings, failed.value);
    const stops = members.map(() => new _runtime_halter_js__WEBPACK_IMPORTED_MODULE_5__/* .Halter */ .x());
    const fleet = (0,_fleet_tally_js__WEBPACK_IMPORTED_MODULE_3__/* .fleetStops */ .g1)(stops, settings.fleetMinReady);
    const ended = await Promise.allSettled(members.map((m, i) => (0,_sequence_js__WEBPACK_IMPORTED_MODULE_4__/* .waitWith */ .O)(seams[i], m, {
        ...memberDeps[i],
        member: { stop: stops[i], settled: (o) => fleet.settled(i, o) }
    }).catch((e) => {
        // one endpoint's wait that throws ends the others' too: none is left following its server
        const halt = { reason: 'cancelled', detail: (0,_report_progress_js__WEBPACK_IMPORTED_MODULE_1__/* .fleetFailedText */ .Hl)(m.targets[0].url, String(e)) };
        stops.forEach((stop) => stop.halt(halt));
        throw e;
    })));
    const thrown = ended.find((e) => e.status === 'rejected');
    if (thrown !== undefined)
        throw thrown.reason;
    const outcomes = ended.map((e) => e.value);
    // each endpoint's own outcome, its server and profile included
    const results = outcomes.map(({ results: _, ...own }) => own);
    const last = (0,_fleet_tally_js__WEBPACK_IMPORTED_MODULE_3__/* .representative */ .wz)(results, fleet.halted, settings.fleetMinReady);
    return { ...last, results, models: [...new Set(results.flatMap((r) => r.models))] };
}
/**
 * The deps of one endpoint's own wait: its lines start with its URL, and the first probe, sent before the gate
 * was loaded, is its own only when it was sent to its URL.
 */
function endpointDeps(deps, url) {
    const prefix = `[${url.href}] `;
    const first = deps.firstProbe?.url === url ? deps.firstProbe : undefined;
    const debug = deps.debug;
    return {
        ...deps,
        firstProbe: first,
        log: (line) => deps.log(`${prefix}${line}`),
        warn: (line, kind) => deps.warn(`${prefix}${line}`, kind),
        notice: (line, kind) => deps.notice(`${prefix}${line}`, kind),
        debug: debug && ((line) => debug(`${prefix}${line}`))
    };
}
/** One endpoint's pre-flight refused its start: the fleet's outcome is that refusal, and no other server started. */
function refusedFleet(settings, refusal) {
    const by = refusal.results[0];
    const halt = { reason: by.halt?.reason ?? 'port-busy', detail: (0,_report_progress_js__WEBPACK_IMPORTED_MODULE_1__/* .fleetRefusedText */ .OJ)(by.url, by.reason) };
    const results = settings.targets.map(({ url }) => url === by.url
        ? by
        : { ready: false, reason: by.reason, elapsedMs: by.elapsedMs, attempts: 0, models: [], halt, timeline: [], url });
    return { ...by, results };
}


/***/ })

};
