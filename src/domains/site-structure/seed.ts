import type { Context } from '../context.js'
import { SeedTimestampSchema, seedRule, type SeedDefaults } from '../../state/seed.js'
import { SiteSectionGroupRowSchema, SiteSectionRowSchema, SiteSpaceCustomizationRowSchema, SiteSpaceRowSchema, siteSpaceContainer } from './rows.js'
import { patchOverride } from '../sites/customization.js'
import type { SiteRow } from '../sites/rows.js'

/** The site of a structure row, which must be in the site's organization. */
function siteOf(ctx: Context, row: { site: string; organization: string }, fail: (field: string, rule: string) => never): SiteRow {
  const site = ctx.tx.get('sites', row.site)
  if (!site) return fail('site', `no site "${row.site}"`)
  if (site.organization !== row.organization) fail('organization', `must be the site's organization "${site.organization}"`)
  return site
}

/** Structure rows name their site's organization (filled in when left out; `siteOf` checks it). */
const organizationOf = (d: SeedDefaults, row: { site: string; organization?: string | undefined }): string =>
  row.organization ?? d.tx.get('sites', row.site)?.organization ?? ''

/** The defaults of every structure row: where it stands, when it was made. */
const structureDefaults = (d: SeedDefaults) => ({
  position: SiteSectionRowSchema.shape.position.default(d.position),
  createdAt: SeedTimestampSchema.default(d.now),
})

/** Whether exactly one row of each group is its default; the failing group's key, or undefined. */
function oneDefaultEach<R extends { default: boolean }>(rows: readonly R[], keyOf: (row: R) => string): string | undefined {
  const defaults = new Map<string, number>()
  for (const row of rows) defaults.set(keyOf(row), (defaults.get(keyOf(row)) ?? 0) + (row.default ? 1 : 0))
  for (const [key, n] of defaults) if (n !== 1) return key
  return undefined
}

/**
 * Section groups, sections and site-spaces in a state document: the invariants the structure
 * operations keep (one default section per site with sections, one default site-space per
 * container holding any, unique paths, a space once per container, no root site-spaces beside
 * sections, groups that do not contain themselves).
 */
export const siteStructureSeedRules = [
  seedRule({
    collection: 'siteSectionGroups',
    row: (d) =>
      SiteSectionGroupRowSchema.partial({ organization: true })
        .extend(structureDefaults(d))
        .transform((row) => ({ ...row, organization: organizationOf(d, row) })),
    check: ({ ctx, fail }, row) => {
      siteOf(ctx, row, fail)
      const seen = new Set([row.id])
      for (let at = row.sectionGroup; at !== undefined;) {
        const parent = ctx.tx.get('siteSectionGroups', at)
        if (!parent || parent.site !== row.site) return fail('sectionGroup', `no section group "${at}" in site "${row.site}"`)
        if (seen.has(parent.id)) return fail('sectionGroup', `section groups cannot contain themselves (a loop through "${parent.id}")`)
        seen.add(parent.id)
        at = parent.sectionGroup
      }
    },
  }),
  seedRule({
    collection: 'siteSections',
    row: (d) =>
      SiteSectionRowSchema.partial({ organization: true })
        .extend({ ...structureDefaults(d), default: SiteSectionRowSchema.shape.default.default(false) })
        .transform((row) => ({ ...row, organization: organizationOf(d, row) })),
    check: ({ ctx, fail }, row) => {
      siteOf(ctx, row, fail)
      if (row.sectionGroup !== undefined && ctx.tx.get('siteSectionGroups', row.sectionGroup)?.site !== row.site) {
        fail('sectionGroup', `no section group "${row.sectionGroup}" in site "${row.site}"`)
      }
      // Section paths are unique in the whole site (groups add nothing to URLs).
      if (ctx.tx.scan('siteSections', 'bySite', row.site).some((e) => e.row.path === row.path && e.row.id !== row.id)) {
        fail('path', `"${row.path}" is used by another section of site "${row.site}"`)
      }
    },
    finish: ({ ctx, fail }) => {
      const site = oneDefaultEach(ctx.tx.all('siteSections'), (s) => s.site)
      if (site !== undefined) fail(`siteSections(site=${site})`, 'a site with sections has exactly one default section')
    },
  }),
  seedRule({
    collection: 'siteSpaces',
    row: (d) =>
      SiteSpaceRowSchema.partial({ organization: true })
        .extend({
          ...structureDefaults(d),
          default: SiteSpaceRowSchema.shape.default.default(false),
          hidden: SiteSpaceRowSchema.shape.hidden.default(false),
        })
        .transform((row) => ({ ...row, organization: organizationOf(d, row) })),
    check: ({ ctx, fail }, row) => {
      siteOf(ctx, row, fail)
      if (row.section !== undefined && ctx.tx.get('siteSections', row.section)?.site !== row.site)
        fail('section', `no section "${row.section}" in site "${row.site}"`)
      // The first section of a site takes over its root site-spaces: a site with sections has none at its root.
      if (row.section === undefined && ctx.tx.count('siteSections', 'bySite', row.site) > 0)
        fail('section', `site "${row.site}" has sections: a site-space belongs to one of them`)
      if (ctx.tx.get('spaces', row.space)?.organization !== row.organization) fail('space', `no space "${row.space}" in organization "${row.organization}"`)
      const siblings = ctx.tx.scan('siteSpaces', 'byContainer', siteSpaceContainer(row)).filter((e) => e.row.id !== row.id)
      if (siblings.some((e) => e.row.space === row.space)) fail('space', `space "${row.space}" is already in this ${row.section ? 'section' : 'site'}`)
      if (siblings.some((e) => e.row.path === row.path)) fail('path', `"${row.path}" is used by another site-space of this ${row.section ? 'section' : 'site'}`)
    },
    finish: ({ ctx, fail }) => {
      const container = oneDefaultEach(ctx.tx.all('siteSpaces'), siteSpaceContainer)
      if (container !== undefined) fail(`siteSpaces(${container})`, 'a site or section holding site-spaces has exactly one default among them')
    },
  }),
  seedRule({
    collection: 'siteSpaceCustomizations',
    row: (d) =>
      SiteSpaceCustomizationRowSchema.partial({ organization: true, site: true })
        .extend({ updatedAt: SeedTimestampSchema.default(d.now) })
        .transform((row) => {
          const site = row.site ?? d.tx.get('siteSpaces', row.siteSpace)?.site ?? ''
          // Stored as the operation stores it: what is overridden, without the nulls that clear.
          return { ...row, site, organization: organizationOf(d, { ...row, site }), override: patchOverride({}, row.override) }
        }),
    check: ({ ctx, fail }, row) => {
      siteOf(ctx, row, fail)
      if (ctx.tx.get('siteSpaces', row.siteSpace)?.site !== row.site) fail('siteSpace', `no site-space "${row.siteSpace}" in site "${row.site}"`)
      if (ctx.tx.scan('siteSpaceCustomizations', 'bySiteSpace', row.siteSpace).some((e) => e.row.id !== row.id)) {
        fail('siteSpace', `site-space "${row.siteSpace}" has another customization`)
      }
    },
  }),
]
