import { newRequest, requestFieldsFor, type EditRequestInput, type PostRequestInput } from "~/domain/referral-requests/forms";
import { respondByAfterEdit } from "~/domain/invitations";
import type { Agent, ReferralRequest } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { mayBeStored, rowIdFor } from "../idempotency-keys.server";

/** Stores a new request (active, no responses, expiring in 30 days: docs/product.md#referral-requests), once per form (see rowIdFor). */
export function postRequest(
  { store }: Pick<Services, "store">,
  member: Pick<Agent, "email" | "fullName">,
  input: PostRequestInput,
  now: Date,
): Promise<ReferralRequest> {
  return store.requests.insertOnce(
    newRequest({ id: rowIdFor(member.email, input.idempotencyKey), input, agent: member, now }),
    mayBeStored(input.idempotencyKey),
  );
}

/** Writes an owner's edit; the type stays what it was, and so does the deadline unless its hours changed. Ownership is the caller's check. */
export function updateRequest(
  { store }: Pick<Services, "store">,
  request: ReferralRequest,
  input: EditRequestInput,
  now: Date,
): Promise<ReferralRequest> {
  return store.requests.update(request.id, {
    ...requestFieldsFor(request.requestType, input),
    respondBy: respondByAfterEdit(request.respondBy, input.respondByHours, now),
    updatedAt: now.toISOString(),
  });
}

/** Soft delete: the row stays in the tab with the status deleted. Ownership is the caller's check. */
export function deleteRequest({ store }: Pick<Services, "store">, request: ReferralRequest, now: Date): Promise<ReferralRequest> {
  return store.requests.update(request.id, { status: "deleted", updatedAt: now.toISOString() });
}
