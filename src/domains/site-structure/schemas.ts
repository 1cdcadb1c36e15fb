import { z } from 'zod'
import { ExpressionSchema, UrlTextSchema } from '../common/schemas.js'
import { pointerSchema, positionOf } from '../common/schemas.js'
import { SpaceSchema } from '../spaces/schemas.js'
import { SiteSchema } from '../sites/schemas.js'
import { SiteCustomizationSettingsSchema } from '../sites/customization-schemas.js'

/** Resources and bodies of a site's structure: sections, section groups, site-spaces. */

export const SiteSectionTitleSchema = z
  .string()
  .min(2, 'must be at least 2 characters')
  .max(128, 'must be at most 128 characters')
  .meta({ id: 'SiteSectionTitle' })
export const SiteSectionGroupTitleSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .meta({ id: 'SiteSectionGroupTitle' })
export const SitePathSchema = UrlTextSchema.min(1, 'must not be empty').max(100, 'must be at most 100 characters')
export const SiteSectionDescriptionSchema = z.string().max(256, 'must be at most 256 characters').meta({ id: 'SiteSectionDescription' })
export const IconSchema = z.string().max(50, 'must be at most 50 characters').meta({ id: 'Icon', description: 'Name of an icon.' })

const publishedUrls = z.object({ published: z.string().optional() })

export const SiteSpaceSchema = z
  .object({
    object: z.literal('site-space'),
    id: z.string(),
    path: z.string(),
    section: z.string().optional(),
    space: SpaceSchema,
    title: z.string(),
    default: z.boolean(),
    draft: z.boolean(),
    condition: z.string().optional(),
    hidden: z.boolean(),
    urls: publishedUrls,
  })
  .meta({ id: 'SiteSpace' })

export const SiteSectionSchema = z
  .object({
    object: z.literal('site-section'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    default: z.boolean(),
    draft: z.boolean(),
    path: z.string(),
    condition: z.string().optional(),
    sectionGroup: z.string().optional(),
    icon: z.string().optional(),
    siteSpaces: z.array(SiteSpaceSchema),
    urls: publishedUrls,
  })
  .meta({ id: 'SiteSection' })

export interface SiteSectionGroupOut {
  object: 'site-section-group'
  id: string
  title: string
  draft: boolean
  icon?: string | undefined
  sectionGroup?: string | undefined
  sections: Array<z.input<typeof SiteSectionSchema>>
  children: Array<z.input<typeof SiteSectionSchema> | SiteSectionGroupOut>
}

export const SiteSectionGroupSchema: z.ZodType<SiteSectionGroupOut> = z
  .object({
    object: z.literal('site-section-group'),
    id: z.string(),
    title: z.string(),
    draft: z.boolean(),
    icon: z.string().optional(),
    sectionGroup: z.string().optional(),
    sections: z.array(SiteSectionSchema).meta({ description: 'The sections directly in the group (deprecated: use `children`).' }),
    get children() {
      return z.array(z.union([SiteSectionSchema, SiteSectionGroupSchema]))
    },
  })
  .meta({ id: 'SiteSectionGroup' })

/** A site's structure: its sections and groups, or its site-spaces when it has no sections. */
export const SiteStructureSchema = z
  .union([
    z.object({ type: z.literal('sections'), structure: z.array(z.union([SiteSectionSchema, SiteSectionGroupSchema])) }),
    z.object({ type: z.literal('siteSpaces'), structure: z.array(SiteSpaceSchema) }),
  ])
  .meta({ id: 'SiteStructure' })

/** The published profile: the site, its structure as visitors see it, customization and scripts. */
export const PublishedContentSiteSchema = z
  .object({
    object: z.literal('published-content-site'),
    site: SiteSchema,
    structure: SiteStructureSchema,
    customizations: z.object({
      site: SiteCustomizationSettingsSchema,
      siteSpaces: z.record(z.string(), SiteCustomizationSettingsSchema).meta({ description: 'What each site-space of the structure shows, by site-space id.' }),
    }),
    scripts: z.array(z.object({ script: z.string(), cookies: z.boolean() })),
  })
  .meta({ id: 'PublishedContentSite' })

const nullableSpaceId = z
  .string()
  .min(1, 'must not be empty')
  .nullable()
  .meta({ description: 'ID of a space of the organization, or null to create a new space.' })

export const AddSectionSchema = z.object({
  spaceId: nullableSpaceId,
  title: SiteSectionTitleSchema.nullable().optional().meta({ description: "Section title (the space's title by default)." }),
  icon: IconSchema.nullable().optional(),
  siteSectionGroupId: z.string().min(1, 'must not be empty').optional().meta({ description: 'ID of the section group to create the section in.' }),
})

export const UpdateSectionSchema = z.object({
  title: SiteSectionTitleSchema.optional(),
  path: SitePathSchema.optional(),
  defaultSiteSpace: z.string().min(1, 'must not be empty').optional().meta({ description: 'ID of a site-space of this section to make its default.' }),
  condition: ExpressionSchema.nullable().optional().meta({ description: 'Omitted keeps the condition; null removes it.' }),
  icon: IconSchema.nullable().optional(),
  description: SiteSectionDescriptionSchema.nullable().optional(),
  siteSectionGroupId: z
    .string()
    .min(1, 'must not be empty')
    .nullable()
    .optional()
    .meta({ description: 'ID of a section group to move the section into; null for the root of the site.' }),
})

export const AddSectionGroupSchema = z.object({
  title: SiteSectionGroupTitleSchema,
  icon: IconSchema.nullable().optional(),
  sections: z.array(z.string().min(1, 'must not be empty')).optional().meta({ description: 'IDs of sections to move into the group, in order.' }),
  parent: z.string().min(1, 'must not be empty').optional().meta({ description: 'ID of the parent group; the root of the site when omitted.' }),
})

export const UpdateSectionGroupSchema = z.object({
  title: SiteSectionGroupTitleSchema.optional(),
  icon: IconSchema.nullable().optional(),
  parentSectionGroupId: z
    .string()
    .min(1, 'must not be empty')
    .nullable()
    .optional()
    .meta({ description: 'ID of a group to move this group into; null for the root of the site.' }),
})

export const AddSectionToGroupSchema = z.object({
  sectionId: z.string().min(1, 'must not be empty').meta({ description: 'ID of the section to move into the group.' }),
})

export const AddSiteSpaceSchema = z.object({
  spaceId: nullableSpaceId,
  sectionId: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .meta({ description: 'ID of the section to add the space to: the default section by default, the root when the site has no sections.' }),
  title: SiteSectionTitleSchema.optional().meta({ description: "A site-specific title (the space's title by default)." }),
})

export const UpdateSiteSpaceSchema = z.object({
  path: SitePathSchema.optional(),
  condition: ExpressionSchema.nullable().optional().meta({ description: 'Omitted keeps the condition; null removes it.' }),
  spaceId: z.string().min(1, 'must not be empty').optional().meta({ description: 'The space the site-space points to.' }),
  hidden: z.boolean().optional().meta({ description: 'True leaves the site-space out of the published navigation; omitted keeps it.' }),
})

export const MoveSiteSpaceSchema = z.object({
  position: positionOf(pointerSchema('site-space', 'siteSpace')).optional().meta({ description: 'Where to place it; at the end of its container by default.' }),
})
export const MoveSiteSectionSchema = z.object({
  position: positionOf(pointerSchema('site-section', 'siteSection'))
    .optional()
    .meta({ description: 'Where to place it; at the end of its container by default.' }),
})

export const STRUCTURE_ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const
export const StructureItemPointerSchema = z
  .object({ type: z.enum(STRUCTURE_ITEM_TYPES), id: z.string().min(1, 'must not be empty') })
  .meta({ id: 'SiteStructureItemPointer' })

export const SortSiteStructureSchema = z.object({
  item: StructureItemPointerSchema.meta({ description: 'The site-space, section or section group to move.' }),
  position: positionOf(StructureItemPointerSchema).meta({ description: 'Next to which sibling; at the end of its container when empty.' }),
})

export const SiteStructureItemSchema = z.union([SiteSpaceSchema, SiteSectionSchema, SiteSectionGroupSchema]).meta({ id: 'SiteStructureItem' })
