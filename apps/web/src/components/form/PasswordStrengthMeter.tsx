import { Box, Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { PASSWORD_STRENGTH_PARTS, passwordScore } from "@/lib/password-strength";

const COLORS = ["red.6", "orange.6", "yellow.6", "lime.6", "green.6"] as const;

type Props = { password: string; withHint?: boolean; id?: string };

/** Five equal parts: length ≥ 8, lower case, upper case, digit, special character. */
export function PasswordStrengthMeter({ password, withHint = true, id }: Props) {
  const { t } = useTranslation();
  const score = passwordScore(password);
  const color = score > 0 ? COLORS[score - 1] : undefined;
  return (
    <Box id={id} mt={6}>
      <Group
        gap={6}
        grow
        role="meter"
        aria-label={t("password.strength", { score })}
        aria-valuemin={0}
        aria-valuemax={PASSWORD_STRENGTH_PARTS}
        aria-valuenow={score}
        data-score={score}
      >
        {Array.from({ length: PASSWORD_STRENGTH_PARTS }, (_, i) => (
          <Box
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed five parts
            key={i}
            h={5}
            bdrs={4}
            data-filled={i < score || undefined}
            bg={i < score && color ? color : "gray.2"}
            style={{ transition: "background-color 150ms ease" }}
          />
        ))}
      </Group>
      {withHint && (
        <Text size="xs" c="dimmed" mt={6}>
          {t("password.hint")}
        </Text>
      )}
    </Box>
  );
}
