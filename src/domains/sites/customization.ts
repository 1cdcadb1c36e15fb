/**
 * The customization of a site that was never customized, in the shape the official
 * `SiteCustomizationSettings` schema requires of a published profile (the reference leaves the
 * profile's customization out: "not shown"). Frozen: it is shared by every answer.
 */
export const DEFAULT_CUSTOMIZATION = deepFreeze({
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

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
