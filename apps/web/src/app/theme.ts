import { createTheme, type MantineColorsTuple } from "@mantine/core";

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

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: 6,
  colors: { brand },
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
