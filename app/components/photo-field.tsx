import { PHOTO_ACCEPT } from "~/domain/profile-limits";
import { controlProps, describedBy, FieldError, FieldHint, type AnyField } from "./field-parts";

/**
 * A profile photo upload. Forms put it last: the server reads fields in order
 * and stops at an oversized file, keeping everything typed above it.
 */
export function PhotoField({
  field,
  label = "Profile Photo",
  currentPhotoUrl,
}: {
  field: AnyField;
  label?: string;
  currentPhotoUrl?: string;
}) {
  const hintId = `${field.id}-hint`;
  return (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-slate-800">
        {label} <span className="font-normal text-slate-500">(optional)</span>
      </label>
      <div className="flex items-center gap-4">
        {currentPhotoUrl ? (
          <img
            src={currentPhotoUrl}
            alt="Your current profile"
            width={64}
            height={64}
            className="h-16 w-16 shrink-0 rounded-full object-cover ring-2 ring-white shadow"
          />
        ) : null}
        <input
          type="file"
          {...controlProps(field)}
          accept={PHOTO_ACCEPT}
          aria-describedby={describedBy(field, hintId)}
          className="block w-full min-w-0 text-sm text-slate-700 file:mr-4 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2.5 file:font-semibold file:text-brand-800 hover:file:bg-brand-100"
        />
      </div>
      <FieldHint id={hintId}>JPG, PNG or WebP, up to 5MB. We crop it to a square.</FieldHint>
      <FieldError field={field} />
    </div>
  );
}
