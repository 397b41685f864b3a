import {
  Alert,
  Button,
  Group,
  type MantineSize,
  PasswordInput,
  type PasswordInputProps,
  SimpleGrid,
  Stack,
  TextInput,
  type TextInputProps,
} from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import type { FormEvent, ReactNode } from "react";
import { type Control, type FieldValues, type Path, useController } from "react-hook-form";
import { fieldError } from "@/lib/form-errors";
import { PasswordStrengthMeter } from "./PasswordStrengthMeter";
import { PhoneInput } from "./PhoneInput";

/**
 * Form fields bound to react-hook-form by `control` + `name`: the account screens and the registration
 * page show the same name, e-mail, phone and password fields, so the binding and the error text live here.
 */
type Bound<T extends FieldValues> = { control: Control<T>; name: Path<T>; label: string };

function useBound<T extends FieldValues>({ control, name }: Bound<T>) {
  const { field, fieldState } = useController({ control, name });
  return { field: { ...field, value: field.value ?? "" }, error: fieldError(fieldState.error) };
}

type TextFieldProps<T extends FieldValues> = Bound<T> &
  Omit<TextInputProps, "name" | "label" | "value" | "onChange" | "error">;

export function TextField<T extends FieldValues>({ control, name, label, ...rest }: TextFieldProps<T>) {
  const { field, error } = useBound({ control, name, label });
  return <TextInput label={label} {...rest} {...field} error={error} />;
}

export function EmailField<T extends FieldValues>(props: TextFieldProps<T>) {
  return <TextField type="email" autoComplete="email" withAsterisk {...props} />;
}

/** First and last name side by side, both required. */
export function NameFields<T extends FieldValues>({
  control,
  first,
  last,
}: {
  control: Control<T>;
  first: { name: Path<T>; label: string };
  last: { name: Path<T>; label: string };
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField control={control} {...first} autoComplete="given-name" withAsterisk />
      <TextField control={control} {...last} autoComplete="family-name" withAsterisk />
    </SimpleGrid>
  );
}

export function PhoneField<T extends FieldValues>({
  control,
  name,
  label,
  mask,
  withAsterisk,
}: Bound<T> & { mask?: string; withAsterisk?: boolean }) {
  const { field, error } = useBound({ control, name, label });
  return <PhoneInput label={label} mask={mask} withAsterisk={withAsterisk} error={error} {...field} />;
}

type PasswordFieldProps<T extends FieldValues> = Bound<T> &
  Omit<PasswordInputProps, "name" | "label" | "value" | "onChange" | "error">;

export function PasswordField<T extends FieldValues>({
  control,
  name,
  label,
  ...rest
}: PasswordFieldProps<T>) {
  const { field, error } = useBound({ control, name, label });
  return <PasswordInput label={label} withAsterisk {...rest} {...field} error={error} />;
}

/** A new password with the five-part strength meter under it. */
export function NewPasswordField<T extends FieldValues>({
  size,
  ...props
}: Bound<T> & { size?: MantineSize }) {
  const { field, error } = useBound(props);
  return (
    <div>
      <PasswordInput
        label={props.label}
        autoComplete="new-password"
        size={size}
        withAsterisk
        {...field}
        error={error}
      />
      <PasswordStrengthMeter password={String(field.value)} />
    </div>
  );
}

/** The message of a failed submit that belongs to no single field. */
export function FormErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}

/** A form's frame: its accessible name, the browser's own validation off, and its failure alert on top. */
export function FormFrame({
  label,
  onSubmit,
  error,
  children,
}: {
  label: string;
  onSubmit: (event?: FormEvent) => unknown;
  error: string | null;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack gap="md">
        <FormErrorAlert message={error} />
        {children}
      </Stack>
    </form>
  );
}

/** The submit button at the right end of a settings form. */
export function SubmitRow({
  loading,
  disabled,
  children,
}: {
  loading: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={loading} disabled={disabled}>
        {children}
      </Button>
    </Group>
  );
}
