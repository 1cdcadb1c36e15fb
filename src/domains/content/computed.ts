import { z } from 'zod'
import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SpaceRow } from '../spaces/rows.js'
import { emptyDocument } from './document.js'

/**
 * Computed content (`getComputedDocument`, `getComputedRevision`): content a source generates, an
 * OpenAPI spec's reference pages (`builtin:openapi`), a translation (`builtin:translation`) or an
 * integration's content source (`integration:<integration>:<source>`). This API runs no
 * integration and generates no pages, so there is nothing to compute: a source is checked (the
 * official shape, then what it names: the integration installed on the space, the OpenAPI spec or
 * the translation in the space's organization) and answers empty content, an empty document or a
 * revision without pages, files or reusable contents. A source naming what is not there is a 400
 * naming the field.
 */

const INTEGRATION_TYPE = /^integration:([^:]+):[^:]+$/

const openapiDependencies = z.object({
  spec: z.object({ ref: z.object({ kind: z.literal('openapi'), spec: z.string().min(1, 'must not be empty') }), value: z.unknown().optional() }),
})
const translationDependencies = z.object({
  translation: z.object({
    ref: z.object({ kind: z.literal('translation'), translation: z.string().min(1, 'must not be empty') }),
    value: z.unknown().optional(),
  }),
})
/** The props of a document translation: the space and document translated. */
const translationDocumentProps = z.object({ space: z.string(), document: z.string() })

/** The issues of `schema` over `value`, added under `path`. */
function nested(ctx: z.core.$RefinementCtx, schema: z.ZodType, value: unknown, path: Array<string | number>): void {
  const parsed = schema.safeParse(value)
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...(issue.path as Array<string | number>)], input: value })
}

/** The official `ComputedContentSourceDocument` (`document`) or `ComputedContentSourceRevision` (`revision`). */
export function computedSourceSchema(kind: 'document' | 'revision') {
  return z
    .looseObject({
      type: z
        .string()
        .refine(
          (t) => t === 'builtin:openapi' || t === 'builtin:translation' || INTEGRATION_TYPE.test(t),
          'must be "builtin:openapi", "builtin:translation" or "integration:<integration>:<source>"',
        ),
      props: z.record(z.string(), z.unknown(), { error: 'must be an object' }),
      dependencies: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    })
    .superRefine((source, ctx) => {
      if (source.type === 'builtin:openapi') nested(ctx, openapiDependencies, source.dependencies, ['dependencies'])
      if (source.type === 'builtin:translation') {
        nested(ctx, translationDependencies, source.dependencies, ['dependencies'])
        if (kind === 'document') nested(ctx, translationDocumentProps, source.props, ['props'])
      }
    })
    .meta({ id: kind === 'document' ? 'ComputedContentSourceDocument' : 'ComputedContentSourceRevision' })
}

export type ComputedSource = z.output<ReturnType<typeof computedSourceSchema>>

export const computedBodySchema = (kind: 'document' | 'revision') =>
  z.object({ source: computedSourceSchema(kind), seed: z.string({ error: 'is required: a string (the seed of generated ids)' }) })

const bad = (field: string, why: string) => new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${why}`)

/** Check that what a source names is there for this space (a 400 naming the field when not). */
export function checkComputedSource(ctx: ReadContext, space: SpaceRow, source: ComputedSource): void {
  const integration = INTEGRATION_TYPE.exec(source.type)?.[1]
  if (integration !== undefined) {
    const installation = ctx.tx.scan('integrationInstallations', 'byIntegrationOrganization', `${integration}/${space.organization}`)[0]?.row
    if (!installation || !ctx.tx.get('integrationSpaceInstallations', `${installation.id}/${space.id}`))
      throw bad('source.type', `the integration \`${integration}\` is not installed on this space`)
    return
  }
  const deps = source.dependencies as { spec?: { ref: { spec: string } }; translation?: { ref: { translation: string } } } | undefined
  if (source.type === 'builtin:openapi') {
    const slug = deps!.spec!.ref.spec
    if (!ctx.tx.scan('openapiSpecs', 'bySlug', `${space.organization}/${slug}`)[0])
      throw bad('source.dependencies.spec.ref.spec', `no OpenAPI spec \`${slug}\` in this organization`)
  }
  if (source.type === 'builtin:translation') {
    const id = deps!.translation!.ref.translation
    if (ctx.tx.get('translations', id)?.organization !== space.organization)
      throw bad('source.dependencies.translation.ref.translation', `no translation \`${id}\` in this organization`)
  }
}

/** What a source computes here: nothing (see above). */
export const computedDocument = () => emptyDocument()
export const computedRevision = () => ({ pages: [], files: [], reusableContents: [] })
