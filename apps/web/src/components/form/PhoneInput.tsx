import { TextInput, type TextInputProps } from "@mantine/core";
import { type ChangeEvent, forwardRef, useLayoutEffect, useRef } from "react";
import { applyMask, MOBILE_PHONE_MASK, maskToDigits } from "@/lib/phone-mask";

type Props = Omit<TextInputProps, "value" | "onChange" | "defaultValue"> & {
  /** Digits only, e.g. `05321234567`. */
  value: string | null | undefined;
  onChange: (digits: string) => void;
  /** `9` = a digit slot; anything else is literal. Default `0 (599) 999-9999`. */
  mask?: string;
};

/** A phone field showing `0 (532) 123-4567` while the form keeps `05321234567`. */
export const PhoneInput = forwardRef<HTMLInputElement, Props>(function PhoneInput(
  { value, onChange, mask = MOBILE_PHONE_MASK, ...rest },
  forwardedRef,
) {
  const display = applyMask(value ?? "", mask);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = inputRef.current;
    if (el && caret.current !== null && document.activeElement === el) {
      el.setSelectionRange(caret.current, caret.current);
    }
    caret.current = null;
  });

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.currentTarget.value;
    const at = event.currentTarget.selectionStart ?? typed.length;
    const atEnd = at >= typed.length;
    let digitsBefore = maskToDigits(typed.slice(0, at)).length;
    let next = applyMask(typed, mask);
    // Deleting a literal (space, bracket, dash) would change nothing: delete the digit before it.
    if (next === display && typed.length < display.length && digitsBefore > 0) {
      const all = maskToDigits(typed);
      next = applyMask(all.slice(0, digitsBefore - 1) + all.slice(digitsBefore), mask);
      digitsBefore -= 1;
    }
    caret.current = atEnd ? next.length : positionAfterDigits(next, digitsBefore);
    onChange(maskToDigits(next));
  };

  return (
    <TextInput
      {...rest}
      ref={(node) => {
        inputRef.current = node;
        if (typeof forwardedRef === "function") forwardedRef(node);
        else if (forwardedRef) forwardedRef.current = node;
      }}
      type="tel"
      inputMode="tel"
      autoComplete={rest.autoComplete ?? "tel"}
      placeholder={rest.placeholder ?? mask.replace(/9/g, "_")}
      value={display}
      onChange={handleChange}
    />
  );
});

function positionAfterDigits(text: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c >= "0" && c <= "9" && ++seen === count) return i + 1;
  }
  return text.length;
}
