import { z } from "zod";
import { emailField } from "./registration";
import { requiredTextField } from "./text";

/** The broker's view's request for a link: the license's state and number, and the e-mail it is on file with. */
export const brokerLinkSchema = z.object({
  state: z.enum(["TX", "OK"], { error: "Please choose the state that issued your broker license" }),
  licenseNumber: requiredTextField("Please enter your broker license number", 20, "Please enter the license number only"),
  email: emailField,
});
export type BrokerLinkInput = z.infer<typeof brokerLinkSchema>;
