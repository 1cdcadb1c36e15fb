import { z } from 'zod'
import { TimestampSchema, UrlSchema } from '../common/schemas.js'
import { ContentRefSchema } from '../content/document-schema/common.js'
import { EmojiSchema, LanguageSchema } from '../spaces/schemas.js'
import { DEFAULT_CUSTOMIZATION } from './customization.js'
import { SiteTitleSchema } from './schemas.js'

/**
 * The official `SiteCustomizationSettings` and its parts, as zod schemas: every enum, colour
 * pattern and limit of the official document, so a value outside them is a 400 naming the field.
 * Objects are loose (unknown keys dropped) as the official ones are, except the per-site-space
 * override, whose keys say what may be overridden (SiteSpaceCustomizationOverrideSchema).
 */

const enumOf = <const T extends readonly [string, ...string[]]>(values: T, id: string) => z.enum(values).meta({ id })

export const ColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a hex colour of 3 or 6 digits, e.g. #346DDB')
  .meta({ id: 'Color' })
export const ThemedColorSchema = z.object({ light: ColorSchema, dark: ColorSchema }).meta({ id: 'CustomizationThemedColor' })
/** `URL`: an absolute http, https or mailto URL of at most 2048 characters (never `javascript:`). */
const CustomizationUrlSchema = UrlSchema.meta({ id: 'URL' })
export const ThemedUrlSchema = z.object({ light: CustomizationUrlSchema, dark: CustomizationUrlSchema }).meta({ id: 'CustomizationThemedURL' })
export const TintSchema = z.object({ color: ThemedColorSchema }).meta({ id: 'CustomizationTint' })

export const ThemeSchema = enumOf(['clean', 'muted', 'bold', 'gradient'], 'CustomizationTheme')
export const CornersSchema = enumOf(['straight', 'rounded', 'circular'], 'CustomizationCorners')
export const DepthSchema = enumOf(['subtle', 'flat'], 'CustomizationDepth')
export const LinksStyleSchema = enumOf(['default', 'accent'], 'CustomizationLinksStyle')
export const BackgroundSchema = enumOf(['plain', 'match'], 'CustomizationBackground')
export const IconsStyleSchema = enumOf(['regular', 'solid', 'duotone', 'light', 'thin'], 'CustomizationIconsStyle')
export const SidebarBackgroundSchema = enumOf(['default', 'filled'], 'CustomizationSidebarBackgroundStyle')
export const SidebarListSchema = enumOf(['default', 'pill', 'line'], 'CustomizationSidebarListStyle')
export const SearchStyleSchema = enumOf(['prominent', 'subtle'], 'CustomizationSearchStyle')
export const LocaleSchema = enumOf(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'], 'CustomizationLocale')
export const HeaderPresetSchema = enumOf(['default', 'bold', 'contrast', 'custom', 'none'], 'CustomizationHeaderPreset')
export const DefaultThemeModeSchema = enumOf(['light', 'dark', 'system'], 'CustomizationDefaultThemeMode')
export const AIModeSchema = enumOf(['none', 'search', 'assistant'], 'CustomizationAIMode')
export const PageActionTypeSchema = enumOf(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'], 'CustomizationPageActionType')
export const ExternalLinksTargetSchema = enumOf(['self', 'blank'], 'SiteExternalLinksTarget')
export const SocialPlatformSchema = enumOf(
  ['twitter', 'instagram', 'facebook', 'linkedin', 'github', 'discord', 'slack', 'youtube', 'tiktok', 'reddit', 'bluesky', 'mastodon', 'threads', 'medium'],
  'SiteSocialAccountPlatform',
)
export const DefaultFontSchema = enumOf(
  [
    'ABCFavorit',
    'Inter',
    'Roboto',
    'RobotoSlab',
    'OpenSans',
    'SourceSansPro',
    'Lato',
    'Ubuntu',
    'Raleway',
    'Merriweather',
    'Overpass',
    'NotoSans',
    'IBMPlexSerif',
    'Poppins',
    'FiraSans',
  ],
  'CustomizationDefaultFont',
)
export const DefaultMonospaceFontSchema = enumOf(
  ['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata'],
  'CustomizationDefaultMonospaceFont',
)
export const CodeThemeSchema = enumOf(
  [
    'default-light',
    'default-dark',
    'monochrome-light',
    'monochrome-dark',
    'andromeeda',
    'aurora-x',
    'ayu-dark',
    'catppuccin-frappe',
    'catppuccin-latte',
    'catppuccin-macchiato',
    'catppuccin-mocha',
    'dark-plus',
    'dracula',
    'dracula-soft',
    'everforest-dark',
    'everforest-light',
    'github-dark',
    'github-dark-default',
    'github-dark-dimmed',
    'github-dark-high-contrast',
    'github-light',
    'github-light-default',
    'github-light-high-contrast',
    'gruvbox-dark-hard',
    'gruvbox-dark-medium',
    'gruvbox-dark-soft',
    'gruvbox-light-hard',
    'gruvbox-light-medium',
    'gruvbox-light-soft',
    'houston',
    'kanagawa-dragon',
    'kanagawa-lotus',
    'kanagawa-wave',
    'laserwave',
    'light-plus',
    'material-theme',
    'material-theme-darker',
    'material-theme-lighter',
    'material-theme-ocean',
    'material-theme-palenight',
    'min-dark',
    'min-light',
    'monokai',
    'night-owl',
    'nord',
    'one-dark-pro',
    'one-light',
    'plastic',
    'poimandres',
    'red',
    'rose-pine',
    'rose-pine-dawn',
    'rose-pine-moon',
    'slack-dark',
    'slack-ochin',
    'snazzy-light',
    'solarized-dark',
    'solarized-light',
    'synthwave-84',
    'tokyo-night',
    'vesper',
    'vitesse-black',
    'vitesse-dark',
    'vitesse-light',
  ],
  'CustomizationCodeTheme',
)
export const ThemedCodeThemeSchema = z.object({ light: CodeThemeSchema, dark: CodeThemeSchema }).meta({ id: 'CustomizationThemedCodeTheme' })

/** Localized text keyed by language (`LocalizedString`, `LocalizedString64`, `LocalizedString128`). */
const localized = (max: number | undefined, id: string) =>
  z.partialRecord(LanguageSchema, max === undefined ? z.string() : z.string().max(max, `must be at most ${max} characters`)).meta({ id })
export const LocalizedStringSchema = localized(undefined, 'LocalizedString')
export const LocalizedString64Schema = localized(64, 'LocalizedString64')
export const LocalizedString128Schema = localized(128, 'LocalizedString128')

export const FontFaceSchema = z
  .object({
    weight: z.int('must be an integer').min(1, 'must be at least 1').max(1000, 'must be at most 1000'),
    sources: z
      .array(z.object({ url: CustomizationUrlSchema, format: z.enum(['woff2', 'woff']).optional() }).meta({ id: 'FontSource' }))
      .min(1, 'must list at least one source'),
  })
  .meta({ id: 'FontFace' })
export const FontDefinitionSchema = z
  .object({
    id: z.string(),
    custom: z.boolean(),
    fontFamily: z.string().min(1, 'must not be empty').max(50, 'must be at most 50 characters').meta({ id: 'FontFamily' }),
    fontFaces: z.array(FontFaceSchema).min(1, 'must list at least one font face'),
  })
  .meta({ id: 'CustomizationFontDefinitionInput' })
const fontError = (what: string) => ({ error: `must be one of the ${what} fonts or a font definition {id, custom, fontFamily, fontFaces}` })
export const FontSchema = z.union([DefaultFontSchema, FontDefinitionSchema], fontError('default')).meta({ id: 'CustomizationFont' })
export const HeadingFontSchema = z
  .union([DefaultFontSchema, FontDefinitionSchema, z.null()], fontError('default'))
  .meta({ id: 'CustomizationHeadingFont', description: 'Font of headings; null: the main font.' })
export const MonospaceFontSchema = z
  .union([DefaultMonospaceFontSchema, FontDefinitionSchema], fontError('monospace'))
  .meta({ id: 'CustomizationMonospaceFont' })

/**
 * `CustomizationFavicon`: `{icon}`, `{emoji}` or `{}` (the official one-of), as one object whose
 * failures name the field at fault (`favicon.icon.light`) rather than "no option matched".
 */
export const FaviconSchema = z
  .object({ icon: ThemedUrlSchema.optional(), emoji: EmojiSchema.optional() })
  .refine((f) => f.icon === undefined || f.emoji === undefined, 'must have an `icon` or an `emoji`, not both')
  .meta({ id: 'CustomizationFavicon' })

export const ContentLinkSchema = z
  .object({
    title: z.string().max(64, 'must be at most 64 characters'),
    localizedTitle: LocalizedString64Schema.optional(),
    to: ContentRefSchema,
  })
  .meta({ id: 'CustomizationContentLink' })
export const HeaderItemSchema = z
  .object({
    title: z.string(),
    localizedTitle: LocalizedStringSchema.optional(),
    style: z.enum(['link', 'button-primary', 'button-secondary']).optional(),
    to: ContentRefSchema.nullable(),
    links: z.array(ContentLinkSchema),
    // The official `Expression` (site-structure's ExpressionSchema, an area above this one).
    condition: z.string().max(1024, 'must be at most 1024 characters').optional(),
  })
  .meta({ id: 'CustomizationHeaderItem' })
export const FooterGroupSchema = z
  .object({ title: z.string(), localizedTitle: LocalizedStringSchema.optional(), links: z.array(ContentLinkSchema) })
  .meta({ id: 'CustomizationFooterGroup' })
export const AnnouncementSchema = z
  .object({
    enabled: z.boolean(),
    message: z.string().min(2, 'must be at least 2 characters').max(128, 'must be at most 128 characters'),
    localizedMessage: LocalizedString128Schema.optional(),
    link: ContentLinkSchema.optional(),
    style: z.enum(['info', 'warning', 'danger', 'success']),
  })
  .meta({ id: 'CustomizationAnnouncement' })
export const SocialAccountSchema = z
  .object({
    platform: SocialPlatformSchema,
    handle: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
    display: z.object({ footer: z.boolean(), header: z.boolean() }),
  })
  .meta({ id: 'SiteSocialAccount' })

/**
 * The sections of the settings, each field required as the official schema requires it
 * (`withDefaults` below makes the body of `updateSiteCustomizationById` from them).
 */
const stylingShape = {
  theme: ThemeSchema,
  primaryColor: ThemedColorSchema,
  tint: TintSchema.optional(),
  infoColor: ThemedColorSchema,
  successColor: ThemedColorSchema,
  warningColor: ThemedColorSchema,
  dangerColor: ThemedColorSchema,
  corners: CornersSchema,
  depth: DepthSchema,
  links: LinksStyleSchema,
  font: FontSchema,
  headingFont: HeadingFontSchema.optional(),
  monospaceFont: MonospaceFontSchema,
  background: BackgroundSchema,
  icons: IconsStyleSchema,
  codeTheme: z.object({ default: ThemedCodeThemeSchema, openapi: ThemedCodeThemeSchema }),
  sidebar: z.object({ background: SidebarBackgroundSchema, list: SidebarListSchema }),
  search: SearchStyleSchema,
}
const settingsShape = {
  title: SiteTitleSchema.optional(),
  localizedTitle: LocalizedString128Schema.optional(),
  styling: z.object(stylingShape),
  internationalization: z.object({ locale: LocaleSchema }),
  favicon: FaviconSchema,
  header: z.object({
    preset: HeaderPresetSchema,
    logo: ThemedUrlSchema.optional(),
    primaryLink: ContentRefSchema.optional(),
    backgroundColor: ThemedColorSchema.optional(),
    linkColor: ThemedColorSchema.optional(),
    links: z.array(HeaderItemSchema),
  }),
  footer: z.object({
    logo: ThemedUrlSchema.optional(),
    groups: z.array(FooterGroupSchema),
    copyright: z.string().max(512, 'must be at most 512 characters').optional(),
  }),
  announcement: AnnouncementSchema.optional(),
  themes: z.object({ default: DefaultThemeModeSchema, toggeable: z.boolean() }),
  feedback: z.object({ enabled: z.boolean() }),
  ai: z.object({
    mode: AIModeSchema,
    greeting: z.string().max(256, 'must be at most 256 characters').optional(),
    localizedGreeting: LocalizedString128Schema.optional(),
    suggestions: z
      .array(z.string().min(3, 'must be at least 3 characters').max(64, 'must be at most 64 characters'))
      .max(5, 'must list at most 5 questions')
      .optional(),
    instructions: z.string().max(10000, 'must be at most 10000 characters').optional(),
  }),
  advancedCustomization: z.object({ enabled: z.boolean() }),
  pageActions: z.object({ items: z.array(PageActionTypeSchema) }),
  externalLinks: z.object({ target: ExternalLinksTargetSchema }),
  pagination: z.object({ enabled: z.boolean() }),
  trademark: z.object({ enabled: z.boolean() }),
  privacyPolicy: z.object({ url: CustomizationUrlSchema.optional() }),
  socialPreview: z.object({ url: CustomizationUrlSchema.optional() }),
  socialAccounts: z.array(SocialAccountSchema).max(10, 'must list at most 10 accounts'),
  insights: z.object({ trackingCookie: z.boolean() }),
}

/** The settings a site stores (`SiteCustomizationSettingsBase`). */
export const SiteCustomizationBaseSchema = z.object(settingsShape).meta({ id: 'SiteCustomizationSettingsBase' })
export type SiteCustomization = z.output<typeof SiteCustomizationBaseSchema>

/** The settings as answered: the stored ones, with when they were last changed (absent: never customized). */
export const SiteCustomizationSettingsSchema = SiteCustomizationBaseSchema.extend({ updatedAt: TimestampSchema.optional() }).meta({
  id: 'SiteCustomizationSettings',
})
export type SiteCustomizationSettings = z.output<typeof SiteCustomizationSettingsSchema>

/** Objects that are one value (a colour, a pair of URLs): given whole or not at all, never filled in. */
const VALUE_OBJECTS = new Set<z.ZodType>([ThemedColorSchema, ThemedUrlSchema, TintSchema, ThemedCodeThemeSchema])

/**
 * An object schema whose fields default to `defaults` when left out, sections a level down too
 * (`styling` given without `font` takes the default font; `styling.sidebar` left out takes the
 * default sidebar). A value object is never filled in: half a colour is a 400.
 */
function withDefaults(shape: z.ZodRawShape, defaults: Record<string, unknown>): z.ZodObject {
  const out: Record<string, z.ZodType> = {}
  for (const [key, schema] of Object.entries(shape) as Array<[string, z.ZodType]>) {
    const fallback = defaults[key]
    if (fallback === undefined) out[key] = schema
    else if (schema instanceof z.ZodObject && !VALUE_OBJECTS.has(schema)) {
      out[key] = withDefaults(schema.shape, fallback as Record<string, unknown>).default(fallback as never)
    } else out[key] = schema.default(fallback as never)
  }
  return z.object(out)
}

/**
 * The body of `updateSiteCustomizationById` (`SiteCustomizationSettingsInput`): the whole
 * settings, every enum and limit checked; sections and fields left out take the defaults of a
 * site never customized (DEFAULT_CUSTOMIZATION), as the official description says ("a full
 * replacement: unset fields revert to defaults").
 */
export const SiteCustomizationInputSchema = withDefaults(settingsShape, DEFAULT_CUSTOMIZATION as Record<string, unknown>).meta({
  id: 'SiteCustomizationSettingsInput',
}) as unknown as z.ZodType<SiteCustomization, unknown>

/** `X | null`: null clears the override (the site's value shows again). */
const clearable = <T extends z.ZodType>(schema: T) => schema.nullable().optional()

/**
 * The body of `overrideSiteSpaceCustomizationById`: what a site-space may override, each field
 * optional and clearable with null. Keys are strict: a setting that cannot be overridden per
 * site-space (`ai`, `styling.font`...) is a 400 naming it rather than silently ignored.
 */
export const SiteSpaceCustomizationOverrideSchema = z
  .strictObject({
    title: clearable(SiteTitleSchema),
    localizedTitle: clearable(LocalizedString128Schema),
    styling: z
      .strictObject({
        theme: clearable(ThemeSchema),
        primaryColor: clearable(ThemedColorSchema),
        infoColor: clearable(ThemedColorSchema),
        successColor: clearable(ThemedColorSchema),
        warningColor: clearable(ThemedColorSchema),
        dangerColor: clearable(ThemedColorSchema),
        tint: clearable(TintSchema),
        corners: clearable(CornersSchema),
        depth: clearable(DepthSchema),
        links: clearable(LinksStyleSchema),
        icons: clearable(IconsStyleSchema),
        sidebar: z.strictObject({ background: clearable(SidebarBackgroundSchema), list: clearable(SidebarListSchema) }).optional(),
        search: clearable(SearchStyleSchema),
        background: clearable(BackgroundSchema),
        codeTheme: z.strictObject({ default: clearable(ThemedCodeThemeSchema), openapi: clearable(ThemedCodeThemeSchema) }).optional(),
      })
      .optional(),
    internationalization: z.strictObject({ locale: LocaleSchema.nullable() }).optional(),
    favicon: clearable(FaviconSchema),
    announcement: AnnouncementSchema.optional(),
    header: z
      .strictObject({
        preset: clearable(HeaderPresetSchema),
        logo: clearable(ThemedUrlSchema),
        primaryLink: clearable(ContentRefSchema),
        backgroundColor: clearable(ThemedColorSchema),
        linkColor: clearable(ThemedColorSchema),
        links: clearable(z.array(HeaderItemSchema)),
      })
      .optional(),
    footer: z
      .strictObject({
        logo: clearable(ThemedUrlSchema),
        groups: clearable(z.array(FooterGroupSchema)),
        copyright: clearable(z.string().max(512, 'must be at most 512 characters')),
      })
      .optional(),
    themes: z.strictObject({ default: clearable(DefaultThemeModeSchema), toggeable: clearable(z.boolean()) }).optional(),
    feedback: z.strictObject({ enabled: z.boolean().nullable() }).optional(),
    externalLinks: z.strictObject({ target: ExternalLinksTargetSchema.nullable() }).optional(),
    pagination: z.strictObject({ enabled: z.boolean().nullable() }).optional(),
    trademark: z.strictObject({ enabled: z.boolean().nullable() }).optional(),
    privacyPolicy: z.strictObject({ url: clearable(CustomizationUrlSchema) }).optional(),
    socialPreview: z.strictObject({ url: clearable(CustomizationUrlSchema) }).optional(),
  })
  .meta({ id: 'SiteSpaceCustomizationOverride' })
export type SiteSpaceCustomizationOverride = z.output<typeof SiteSpaceCustomizationOverrideSchema>
