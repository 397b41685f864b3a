import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
} from "@mantine/core";

/** Primary #009EF7 (spec section 3), at shade 6. */
const brand: MantineColorsTuple = [
  "#e3f5ff",
  "#cdeaff",
  "#9cd3fd",
  "#66bbfb",
  "#3aa7f9",
  "#1d9af8",
  "#009ef7",
  "#0081ca",
  "#0073b5",
  "#00639f",
];

/**
 * Text colours darkened to meet WCAG 2.1 AA (4.5:1) on white and on their own light backgrounds:
 * Mantine's defaults (gray-6 dimmed text, shade-6 text and light-badge colours, #009EF7 links)
 * measure 2.9 to 3.4:1. The brand colour stays for surfaces, only text and filled buttons darken.
 */
const darkText = (color: string) => `color-mix(in srgb, ${color} 70%, #000)`;

export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {
    "--mantine-color-dimmed": "#5c636a",
    "--mantine-color-placeholder": "#6b7178",
    "--mantine-color-anchor": brand[8],
    // Field errors: Mantine's red-6 measures 3.3:1 on white.
    "--mantine-color-error": darkText(t.colors.red[8]),
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    light[`--mantine-color-${name}-text`] = darkText(shades[8]);
    light[`--mantine-color-${name}-light-color`] = darkText(shades[9]);
    light[`--mantine-color-${name}-outline`] = darkText(shades[8]);
  }
  return { variables: {}, light, dark: {} };
};

export const theme = createTheme({
  primaryColor: "brand",
  // Shade 8 for filled buttons and links: white on #009EF7 measures 2.9:1, on shade 8 5.1:1.
  primaryShade: 8,
  // Filled badges and buttons of light colours (yellow, orange) get dark text.
  autoContrast: true,
  colors: { ...DEFAULT_THEME.colors, brand },
  fontFamily:
    '"Inter Variable", Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif',
  headings: { fontWeight: "600" },
  defaultRadius: "md",
  cursorType: "pointer",
  components: {
    Card: { defaultProps: { radius: "md", withBorder: false, shadow: "xs", padding: "lg" } },
    Paper: { defaultProps: { radius: "md" } },
    Badge: { styles: { label: { textTransform: "none" } } },
  },
});
