import type { ProcessError } from './read.js'
import type { Refs } from './refs.js'
import type { Kind } from './schema-check.js'
import { STEP, type Steps } from './steps.js'

/**
 * The rules a JSON schema cannot say, as @readme/openapi-parser checks them (its messages), on
 * the document as written: where a rule looks at a parameter, a response, a header or a schema
 * given by `$ref`, it looks at the target (`refs.deref`), one node deep, never expanding the
 * target's own references. The parser compared operationIds, parameters and path placeholders
 * pairwise (quadratic); sets and maps make each rule linear. The one rule that walks schemas
 * (Swagger 2.0: a required property must exist, through `allOf`) walks each schema's `allOf`
 * closure, and closures overlap (a chain of n schemas has n closures of up to n schemas): its
 * walks share a budget of schemas and `allOf` entries to look at, proportional to the length of
 * the text (`budget`), past which the spec gets one error saying so (code `TOO_COMPLEX`).
 */

type Obj = Record<string, unknown>
type Report = (error: ProcessError) => void

const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value)
const entriesOf = (value: unknown): Array<[string, unknown]> => (isObj(value) ? Object.entries(value) : [])

const OPENAPI_METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace']
const SWAGGER_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']
const PATH_TEMPLATE = /\{([^/}]+)}/g
const NAME = /^[a-zA-Z0-9.\-_]+$/
const list = (items: string[]) => new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(items.map((item) => `\`${item}\``))

/**
 * Checks made before the JSON schema (the parser's pre-schema checks): a security scheme that
 * does not fit its `type` gets one clear error instead of the schema's `oneOf` noise (the schema
 * is then not checked). Returns the paths of the schemes at fault.
 */
export function checkSecurity(api: Obj, kind: Kind, refs: Refs, report: Report): string[] {
  const flagged: string[] = []
  const issue = (id: string, message: string) => {
    if (!flagged.includes(id)) flagged.push(id)
    report({ message, code: 'INVALID_SECURITY_SCHEME_PROPERTIES' })
  }
  if (kind === 'swagger') {
    for (const [name, raw] of entriesOf(api.securityDefinitions)) {
      const definition = refs.deref(raw)
      if (!isObj(definition)) continue
      const id = `/securityDefinitions/${name}`
      if (definition.type === 'http') {
        issue(id, `\`${id}\` uses \`type: http\`, which is an OpenAPI 3.x value. In Swagger 2.0 use \`type: basic\` for HTTP Basic auth.`)
      } else if (definition.type === 'apiKey' && typeof definition.in === 'string' && !['query', 'header'].includes(definition.in)) {
        issue(id, `\`${id}\` has an invalid \`in\` value: \`${definition.in}\`. Swagger 2.0 only supports \`query\` or \`header\`.`)
      }
    }
    return flagged
  }
  const kinds: Record<string, { required: string[]; foreign: Record<string, string> }> = {
    apiKey: { required: ['name', 'in'], foreign: { scheme: 'http', bearerFormat: 'http', flows: 'oauth2', openIdConnectUrl: 'openIdConnect' } },
    http: { required: ['scheme'], foreign: { name: 'apiKey', in: 'apiKey', flows: 'oauth2', openIdConnectUrl: 'openIdConnect' } },
    oauth2: { required: ['flows'], foreign: { name: 'apiKey', in: 'apiKey', scheme: 'http', bearerFormat: 'http', openIdConnectUrl: 'openIdConnect' } },
    openIdConnect: { required: ['openIdConnectUrl'], foreign: { name: 'apiKey', in: 'apiKey', scheme: 'http', bearerFormat: 'http', flows: 'oauth2' } },
    mutualTLS: {
      required: [],
      foreign: { name: 'apiKey', in: 'apiKey', scheme: 'http', bearerFormat: 'http', flows: 'oauth2', openIdConnectUrl: 'openIdConnect' },
    },
  }
  const components = refs.deref(api.components)
  for (const [name, raw] of entriesOf(isObj(components) ? components.securitySchemes : undefined)) {
    const scheme = refs.deref(raw)
    if (!isObj(scheme)) continue
    const id = `/components/securitySchemes/${name}`
    const type = scheme.type
    if (!type) {
      issue(id, `\`${id}\` is missing required property \`type\`. Must be one of: \`apiKey\`, \`http\`, \`oauth2\`, \`openIdConnect\`, \`mutualTLS\`.`)
      continue
    }
    if (type === 'basic') {
      issue(id, `\`${id}\` uses \`type: basic\`, which is a Swagger 2.0 value. In OpenAPI 3.x use \`type: http\` with \`scheme: basic\` instead.`)
      continue
    }
    const config = typeof type === 'string' && Object.prototype.hasOwnProperty.call(kinds, type) ? kinds[type] : undefined
    if (!config) {
      issue(id, `\`${id}\` has an invalid \`type\`: \`${String(type)}\`. Must be one of: \`apiKey\`, \`http\`, \`oauth2\`, \`openIdConnect\`, \`mutualTLS\`.`)
      continue
    }
    for (const prop of config.required) if (!(prop in scheme)) issue(id, `\`${id}\` (\`type: ${type}\`) is missing required property \`${prop}\`.`)
    for (const [prop, owner] of Object.entries(config.foreign)) {
      if (prop in scheme) issue(id, `\`${id}\` (\`type: ${type}\`) includes \`${prop}\`, which is only valid for \`type: ${owner}\` schemes.`)
    }
    if (type === 'apiKey' && typeof scheme.in === 'string' && !['query', 'header', 'cookie'].includes(scheme.in)) {
      issue(id, `\`${id}\` has an invalid \`in\` value: \`${scheme.in}\`. Must be one of: \`query\`, \`header\`, \`cookie\`.`)
    }
    if (type === 'oauth2' && isObj(scheme.flows) && Object.keys(scheme.flows).length === 0) {
      issue(
        id,
        `\`${id}\` has empty \`flows\`. At least one grant type is required: \`implicit\`, \`password\`, \`clientCredentials\`, or \`authorizationCode\`.`,
      )
    }
  }
  return flagged
}

/** Every key of `paths` is a path (`/...`): checked before the JSON schema, whose errors would say it less clearly. */
export function checkPathKeys(api: Obj, kind: Kind): ProcessError | undefined {
  const wrong = Object.keys(isObj(api.paths) ? api.paths : {}).find((path) => !path.startsWith('/'))
  if (wrong === undefined) return undefined
  return {
    message: `Entries in the ${kind === 'swagger' ? 'Swagger' : 'OpenAPI'} \`paths\` object must begin with a leading slash (\`${wrong}\` does not).`,
    code: 'PATH_LEADING_SLASH',
  }
}

/** The rules, once the document is valid against its schema. `budget`: how many schemas the required-property rule may visit. */
export function* checkRules(api: Obj, kind: Kind, refs: Refs, report: Report, budget: number): Steps<void> {
  const deref = (value: unknown) => refs.deref(value)
  const operationIds = new Set<unknown>()
  let work = 0
  let paused = 0
  let spent = 0
  let overBudget = false

  const arrayWithoutItems = (schema: unknown, id: string) => {
    const target = deref(schema)
    if (isObj(target) && target.type === 'array' && !target.items)
      report({ message: `\`${id}\` is an array, so it must include an \`items\` schema.`, code: 'ARRAY_WITHOUT_ITEMS' })
  }

  /** Report a parameter declared twice (the same `in` and `name`) in one list; the parameters, their targets resolved. */
  const parametersOf = (raw: unknown, id: string): Obj[] => {
    const params = (Array.isArray(raw) ? raw : []).map(deref).filter(isObj)
    work += params.length
    const seen = new Set<string>()
    for (const param of params) {
      const key = `${String(param.in)}\u0000${String(param.name)}`
      if (seen.has(key))
        report({
          message: `Found multiple \`${String(param.in)}\` parameters named \`${String(param.name)}\` in \`${id}\`.`,
          code: 'DUPLICATE_NON_REQUEST_BODY_PARAMETERS',
        })
      seen.add(key)
    }
    return params
  }

  /** The operation's parameters, then the path's that the operation does not override. */
  const combined = (operation: Obj[], path: Obj[]): Obj[] => {
    const keys = new Set(operation.map((p) => `${String(p.in)}\u0000${String(p.name)}`))
    const out = [...operation]
    for (const param of path) {
      const key = `${String(param.in)}\u0000${String(param.name)}`
      if (!keys.has(key)) {
        keys.add(key)
        out.push(param)
      }
    }
    return out
  }

  /** Each `{placeholder}` of the path has its path parameter, required, and each path parameter its placeholder. */
  const pathParameters = (params: Obj[], pathId: string, operationId: string) => {
    const placeholders = new Map<string, number>()
    for (const match of pathId.matchAll(PATH_TEMPLATE)) {
      const placeholder = match[0]
      const seen = placeholders.get(placeholder) ?? 0
      // Swagger 2.0 (the parser checks this for Swagger only): one placeholder twice in a path.
      if (seen > 0 && kind === 'swagger')
        report({ message: `\`${operationId}\` has multiple path placeholders named \`${placeholder}\`.`, code: 'DUPLICATE_PATH_PLACEHOLDER' })
      placeholders.set(placeholder, kind === 'swagger' ? seen + 1 : 1)
    }
    for (const param of params) {
      if (param.in !== 'path') continue
      if (param.required !== true) {
        report({
          message: `Path parameters cannot be optional. Set \`required=true\` for the \`${String(param.name)}\` parameter at \`${operationId}\`.`,
          code: 'NON_OPTIONAL_PATH_PARAMETERS',
        })
      }
      const placeholder = `{${String(param.name)}}`
      const left = placeholders.get(placeholder) ?? 0
      if (left === 0) {
        report({
          message: `\`${operationId}\` has a path parameter named \`${String(param.name)}\`, but there is no corresponding \`${placeholder}\` in the path string.`,
          code: 'PATH_PARAMETERS_NOT_IN_PATH',
        })
      } else if (left === 1) placeholders.delete(placeholder)
      else placeholders.set(placeholder, left - 1)
    }
    const missing = [...placeholders].flatMap(([placeholder, count]) => Array<string>(count).fill(placeholder))
    if (missing.length > 0)
      report({ message: `\`${operationId}\` is missing path parameter(s) for ${list(missing)}.`, code: 'PATH_PARAMETERS_NOT_IN_PARAMETERS' })
  }

  /** Swagger 2.0: each property a schema lists as required is one of its properties (or of its `allOf` schemas, through them). */
  const requiredPropertiesExist = (raw: unknown, id: string) => {
    const schema = deref(raw)
    if (overBudget || !isObj(schema) || !Array.isArray(schema.required)) return
    const properties = new Set<string>()
    const visited = new Set<Obj>()
    const stack: unknown[] = [schema]
    while (stack.length > 0) {
      const next = deref(stack.pop())
      if (!isObj(next) || visited.has(next)) continue
      // Each schema visited and each `allOf` entry looked at counts (a fan-out of allOf looks at many).
      spent += 1 + (Array.isArray(next.allOf) ? next.allOf.length : 0)
      if (spent > budget) {
        overBudget = true
        report({
          message: `\`${id}\`: checking that required properties exist went through more than ${budget} schemas and allOf entries (the limit for a text of this length): the \`allOf\` chains of the document are too long to check`,
          code: 'TOO_COMPLEX',
        })
        return
      }
      visited.add(next)
      for (const key of Object.keys(isObj(next.properties) ? next.properties : {})) properties.add(key)
      if (Array.isArray(next.allOf)) for (let i = next.allOf.length - 1; i >= 0; i--) stack.push(next.allOf[i])
    }
    for (const property of schema.required) {
      if (!properties.has(String(property)))
        report({ message: `Property \`${String(property)}\` is listed as required but does not exist in \`${id}\`.`, code: 'UNKNOWN_REQUIRED_SCHEMA_PROPERTY' })
    }
  }

  const openapiOperation = (path: Obj, pathId: string, operation: Obj, operationId: string) => {
    const params = combined(parametersOf(operation.parameters, operationId), parametersOf(path.parameters, pathId))
    pathParameters(params, pathId, operationId)
    for (const param of params) {
      const parameterId = `${operationId}/parameters/${String(param.name)}`
      if (!param.schema && isObj(param.content)) {
        const mediaTypes = Object.keys(param.content)
        if (mediaTypes.length !== 1) {
          report({ message: `\`${parameterId}\` must have exactly one media type in \`content\`, but found ${mediaTypes.length}.`, code: 'PARAMETER_CONTENT' })
        } else {
          const media = deref(param.content[mediaTypes[0]!])
          if (isObj(media) && media.schema) arrayWithoutItems(media.schema, `${parameterId}/content/${mediaTypes[0]}/schema`)
        }
      } else if (param.schema) arrayWithoutItems(param.schema, parameterId)
    }
    for (const [code, raw] of entriesOf(operation.responses)) {
      const response = deref(raw)
      if (!isObj(response)) continue
      const responseId = `${operationId}/responses/${code}`
      for (const [name, rawHeader] of entriesOf(response.headers)) {
        const header = deref(rawHeader)
        if (!isObj(header)) continue
        const headerId = `${responseId}/headers/${name}`
        if (header.schema) arrayWithoutItems(header.schema, headerId)
        else
          for (const [mediaType, media] of entriesOf(header.content))
            if (isObj(media) && media.schema) arrayWithoutItems(media.schema, `${headerId}/content/${mediaType}/schema`)
      }
      for (const [mediaType, rawMedia] of entriesOf(response.content)) {
        const media = deref(rawMedia)
        if (isObj(media) && media.schema) arrayWithoutItems(media.schema, `${responseId}/content/${mediaType}/schema`)
      }
      work++
    }
  }

  const swaggerOperation = (path: Obj, pathId: string, operation: Obj, operationId: string) => {
    const params = combined(parametersOf(operation.parameters, operationId), parametersOf(path.parameters, pathId))
    const body = params.filter((param) => param.in === 'body').length
    if (body > 1) report({ message: `\`${operationId}\` has ${body} body parameters. Only one is allowed.`, code: 'BODY_PARAMETERS' })
    else if (body > 0 && params.some((param) => param.in === 'formData')) {
      report({ message: `\`${operationId}\` has \`body\` and \`formData\` parameters. Only one or the other is allowed.`, code: 'BODY_PARAMETERS' })
    }
    pathParameters(params, pathId, operationId)
    for (const param of params) {
      const parameterId = `${operationId}/parameters/${String(param.name)}`
      const schema = param.in === 'body' ? deref(param.schema) : param
      if (!isObj(schema)) continue
      arrayWithoutItems(schema, parameterId)
      requiredPropertiesExist(schema, parameterId)
      if (schema.type === 'file') {
        const consumes = (Array.isArray(operation.consumes) ? operation.consumes : Array.isArray(api.consumes) ? api.consumes : []) as unknown[]
        // A media type is short: a long string cannot be one (and the patterns would backtrack on it).
        const fits = consumes.some(
          (type) =>
            typeof type === 'string' &&
            type.length <= 255 &&
            (/multipart\/(.*\+)?form-data/.test(type) || /application\/(.*\+)?x-www-form-urlencoded/.test(type)),
        )
        if (!fits)
          report({
            message: `\`${operationId}\` has a file parameter, so it must consume \`multipart/form-data\` or \`application/x-www-form-urlencoded\`.`,
            code: 'FILE_PARAMETER_CONSUMES',
          })
      }
    }
    for (const [code, raw] of entriesOf(operation.responses)) {
      const response = deref(raw)
      if (!isObj(response)) continue
      const responseId = `${operationId}/responses/${code}`
      if (code !== 'default' && (Number(code) < 100 || Number(code) > 599))
        report({ message: `\`${responseId}\` has an invalid response code: ${code}`, code: 'INVALID_RESPONSE_CODE' })
      for (const [name, header] of entriesOf(response.headers)) arrayWithoutItems(header, `${responseId}/headers/${name}`)
      if (response.schema) arrayWithoutItems(response.schema, `${responseId}/schema`)
      work++
    }
  }

  for (const [pathName, raw] of entriesOf(api.paths)) {
    const path = deref(raw)
    if (!isObj(path) || !pathName.startsWith('/')) continue
    const pathId = `/paths${pathName}`
    for (const method of kind === 'swagger' ? SWAGGER_METHODS : OPENAPI_METHODS) {
      const operation = path[method]
      if (!isObj(operation)) continue
      const operationId = `${pathId}/${method}`
      const declared = operation.operationId
      if (declared) {
        if (operationIds.has(declared))
          report({ message: `The operationId \`${String(declared)}\` is duplicated and must be made unique.`, code: 'DUPLICATE_OPERATION_ID' })
        operationIds.add(declared)
      }
      if (kind === 'swagger') swaggerOperation(path, pathId, operation, operationId)
      else openapiOperation(path, pathId, operation, operationId)
      work++
    }
    if (work - paused >= STEP) {
      paused = work
      yield
    }
  }

  if (kind === 'swagger') {
    for (const [name, definition] of entriesOf(api.definitions)) {
      const id = `/definitions/${name}`
      if (!NAME.test(name))
        report({ message: `\`${id}\` has an invalid name. Definition names should match against: /^[a-zA-Z0-9.-_]+$/`, code: 'INVALID_COMPONENT_NAME' })
      requiredPropertiesExist(definition, id)
      if (++work - paused >= STEP) {
        paused = work
        yield
      }
    }
  } else if (kind === 'openapi30') {
    for (const [type, components] of entriesOf(api.components)) {
      for (const name of Object.keys(isObj(components) ? components : {})) {
        if (!NAME.test(name))
          report({
            message: `\`/components/${type}/${name}\` has an invalid name. Component names should match against: /^[a-zA-Z0-9.-_]+$/`,
            code: 'INVALID_COMPONENT_NAME',
          })
      }
    }
  } else {
    const empty = (value: unknown) => Object.keys(isObj(value) ? value : {}).length === 0
    if (empty(api.paths) && empty(api.webhooks) && empty(api.components)) {
      report({ message: 'OpenAPI 3.1 definitions must contain at least one entry in either `paths`, `webhooks`, or `components`.', code: 'EMPTY_API' })
    }
  }
}
