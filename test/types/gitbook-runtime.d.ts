/**
 * The types of `@gitbook/runtime` as the tests use it. The package ships its TypeScript source,
 * written for Cloudflare Workers (`FetchEvent`, `@cloudflare/workers-types`), which this project's
 * compiler settings do not type-check; vitest runs the source as it is. tsconfig.json maps the
 * package's name here (`paths`) for the type checker only.
 */
import type { ContentKitContext } from '@gitbook/api'

type Handler = (request: Request, env: unknown, ctx: { waitUntil(promise: Promise<unknown>): void; passThroughOnException(): void }) => Promise<Response>

export interface RuntimeContext {
  environment: {
    integration: { name: string }
    installation?: { id: string; configuration: Record<string, unknown> }
    spaceInstallation?: { space: string }
    [key: string]: unknown
  }
  waitUntil(promise: Promise<unknown>): void
}

export interface ComponentInstance<Props, State> {
  props: Props
  state: State
  context: ContentKitContext
}

export interface ComponentDefinition {
  componentId: string
}

export function createComponent<Props = Record<string, unknown>, State = Record<string, unknown>, Action = void>(component: {
  componentId: string
  initialState?: State | ((props: Props) => State)
  action?: (
    instance: ComponentInstance<Props, State>,
    action: Action | { action: string },
    context: RuntimeContext,
  ) => Promise<{ props?: Props; state?: State } | { type: 'complete'; returnValue?: Record<string, unknown> } | undefined>
  render: (instance: ComponentInstance<Props, State>, context: RuntimeContext) => Promise<unknown>
}): ComponentDefinition

export function createIntegration(definition: {
  components?: ComponentDefinition[]
  events?: Record<string, (event: any, context: RuntimeContext) => Promise<void>>
  task?: (task: any, context: RuntimeContext) => Promise<void>
  fetch?: (request: Request, context: RuntimeContext) => Promise<Response>
}): { fetch: Handler }
