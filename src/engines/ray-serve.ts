/** Ray Serve LLM: its proxy says 503 until its routes and replicas exist, then its ingress lists the models. */
import { type EngineRecord, readinessRoute, UNKNOWN_LOG } from './engine-record.js'

export const rayServe: EngineRecord<'ray-serve'> = {
  name: 'ray-serve',
  label: 'Ray Serve LLM',
  // no line of Serve's own marks a deployment ready in the source read
  log: UNKNOWN_LOG,
  // its proxy's NO_ROUTES_MESSAGE and NO_REPLICAS_MESSAGE (text/plain 503s), and its 404 for a path not routed yet
  answerSignature:
    /^(?:Route table is not populated yet\.|No replicas are available yet\.)$|^Path '[^']*' not found\. Ping http:\/\/\S+\/-\/routes for available routes\./,
  modelLists: ['openai'],
  readiness: [
    // 503 "Route table is not populated yet.", then 503 "No replicas are available yet.", then 200; meanwhile the
    // app's routes say 404 "Path '…' not found. Ping http://…/-/routes for available routes."
    readinessRoute({
      path: '/-/healthz',
      because: "Ray Serve's proxy says 503 until its route table is populated and its replicas are up"
    })
  ],
  servesOneModel: false,
  generation: ['openai'],
  stream: 'openai',
  sources: [
    'ray-project/ray@fce2fc41:python/ray/llm/_internal/serve/core/ingress/ingress.py (/v1/models from the LLM configs)',
    'ray-project/ray:python/ray/serve/_private/proxy_router.py (NO_ROUTES_MESSAGE, NO_REPLICAS_MESSAGE; a stored copy, version not dated)'
  ]
}
