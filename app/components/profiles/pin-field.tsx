import { Field } from "~/components/ui/form";

/** The profiles' PIN: four digits, hidden as typed, with the phone's number pad (/profiles, the code page). */
export function PinField(props: { label: string; errors?: string[]; hint?: string; autoFocus?: boolean }) {
  return (
    <Field
      name="pin"
      type="password"
      inputMode="numeric"
      autoComplete="off"
      pattern="[0-9]{4}"
      maxLength={4}
      required
      {...props}
    />
  );
}
