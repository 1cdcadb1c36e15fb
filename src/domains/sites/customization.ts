import type { ReadContext } from '../context.js'
import type { SiteCustomization, SiteCustomizationSettings, SiteSpaceCustomizationOverride } from './customization-schemas.js'

/**
 * The customization of a site that was never customized, in the shape the official
 * `SiteCustomizationSettings` schema requires of a published profile (the reference leaves the
 * profile's customization out: "not shown"). Frozen: it is shared by every answer.
 */
export const DEFAULT_CUSTOMIZATION: SiteCustomization = deepFreeze({
  styling: {
    theme: 'clean',
    primaryColor: {
      light: '#346DDB',
      dark: '#346DDB',
    },
    infoColor: {
      light: '#787878',
      dark: '#787878',
    },
    successColor: {
      light: '#02A36E',
      dark: '#02A36E',
    },
    warningColor: {
      light: '#F59E0B',
      dark: '#F59E0B',
    },
    dangerColor: {
      light: '#E2312F',
      dark: '#E2312F',
    },
    corners: 'straight',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'FiraCode',
    codeTheme: {
      default: {
        light: 'default-light',
        dark: 'default-light',
      },
      openapi: {
        light: 'default-light',
        dark: 'default-light',
      },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: {
      background: 'default',
      list: 'default',
    },
    search: 'prominent',
  },
  internationalization: {
    locale: 'en',
  },
  favicon: {},
  header: {
    preset: 'default',
    links: [],
  },
  footer: {
    groups: [],
  },
  themes: {
    default: 'light',
    toggeable: false,
  },
  feedback: {
    enabled: false,
  },
  ai: {
    mode: 'none',
  },
  advancedCustomization: {
    enabled: false,
  },
  trademark: {
    enabled: false,
  },
  externalLinks: {
    target: 'self',
  },
  pagination: {
    enabled: false,
  },
  pageActions: {
    items: [],
  },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: {
    trackingCookie: true,
  },
})

/** A site's customization as answered: what it stored, with when, or the default for a site never customized. */
export function siteCustomizationOf(ctx: ReadContext, site: string): SiteCustomizationSettings {
  const row = ctx.tx.scan('siteCustomizations', 'bySite', site)[0]?.row
  return row ? { ...row.settings, updatedAt: row.updatedAt } : DEFAULT_CUSTOMIZATION
}

/**
 * What visitors get of a customization (the published profile): the AI assistant's instructions
 * are "only available to site admins and never exposed on the published site" (official schema).
 */
export function publishedCustomization(settings: SiteCustomizationSettings): SiteCustomizationSettings {
  if (settings.ai.instructions === undefined) return settings
  const { instructions: _, ...ai } = settings.ai
  return { ...settings, ai }
}

type Tree = Record<string, unknown>

/**
 * Where an override changes the settings field by field (its sections); anything else it names
 * (a colour, the favicon, the header links, the announcement) replaces the site's value whole.
 */
const SECTIONS = new Set([
  'styling',
  'styling.sidebar',
  'styling.codeTheme',
  'internationalization',
  'header',
  'footer',
  'themes',
  'feedback',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
])
const pathOf = (at: string, key: string) => (at ? `${at}.${key}` : key)

/**
 * A site-space's stored override with a patch applied: a value overrides, `null` clears the
 * override (the site's value shows again), a section merges field by field; a section left with
 * nothing overridden goes. Stored overrides hold no nulls.
 */
export function patchOverride(stored: SiteSpaceCustomizationOverride, patch: SiteSpaceCustomizationOverride): SiteSpaceCustomizationOverride {
  return patchTree(stored, patch, '') as SiteSpaceCustomizationOverride
}

function patchTree(stored: Tree, patch: Tree, at: string): Tree {
  const out: Tree = { ...stored }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const path = pathOf(at, key)
    if (value === null) delete out[key]
    else if (SECTIONS.has(path)) {
      const merged = patchTree((stored[key] as Tree | undefined) ?? {}, value as Tree, path)
      if (Object.keys(merged).length === 0) delete out[key]
      else out[key] = merged
    } else out[key] = value
  }
  return out
}

/**
 * The customization a site-space shows: the site's, with what its override sets over it
 * (sections field by field). `updatedAt` is the later of the two changes.
 */
export function applyOverride(
  site: SiteCustomizationSettings,
  override: SiteSpaceCustomizationOverride | undefined,
  overriddenAt?: string,
): SiteCustomizationSettings {
  if (!override) return site
  const merged = applyTree(site, override, '') as SiteCustomizationSettings
  const updatedAt = [site.updatedAt, overriddenAt]
    .filter((t) => t !== undefined)
    .sort()
    .at(-1)
  return { ...merged, ...(updatedAt !== undefined && { updatedAt }) }
}

function applyTree(site: Tree, override: Tree, at: string): Tree {
  const out: Tree = { ...site }
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined || value === null) continue
    const path = pathOf(at, key)
    out[key] = SECTIONS.has(path) ? applyTree((site[key] as Tree | undefined) ?? {}, value as Tree, path) : value
  }
  return out
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
