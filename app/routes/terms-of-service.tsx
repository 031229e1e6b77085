import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LegalDocument, legalEffectiveDate, type LegalSection } from "~/components/legal-document";
import { FOUNDER_CAP, PRODUCT_NAME } from "~/domain/product";
import { NO_SCRIPTS_FOR_VISITORS } from "~/domain/page-scripts";

/** Text and links to its sections: a visitor gets the page without scripts (decision 0085). */
export const handle = NO_SCRIPTS_FOR_VISITORS;

export const meta: MetaFunction = () => [
  { title: `Terms of Service | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `The terms that apply to membership of ${PRODUCT_NAME}, the referral network for Texas and Oklahoma agents.`,
  },
];

/** The effective date is the day of the request, as the terms have always stated. */
export function loader({ context }: LoaderFunctionArgs) {
  return { effectiveDate: legalEffectiveDate(new Date()), supportEmail: context.services.config.supportEmail };
}

export default function TermsOfService() {
  const { effectiveDate, supportEmail } = useLoaderData<typeof loader>();
  return (
    <LegalDocument
      title="Terms of Service"
      effectiveDate={effectiveDate}
      intro={`The rules for using ${PRODUCT_NAME} and being a member of our referral network. Please read them carefully.`}
      sections={termsSections(supportEmail)}
    />
  );
}

function termsSections(supportEmail: string): LegalSection[] {
  const mailLink = <a href={`mailto:${supportEmail}`}>{supportEmail}</a>;
  return [
    {
      id: "acceptance",
      title: "Acceptance of Terms",
      body: (
        <>
          <p>
            These Terms of Service (“Terms”) govern your access to and use of the {PRODUCT_NAME} website and referral network (the
            “Service”). By registering, logging in or otherwise using the Service, you agree to be bound by these Terms and by our{" "}
            <Link to="/privacy-policy">Privacy Policy</Link>. If you do not agree, do not use the Service.
          </p>
          <p>
            If you use the Service on behalf of a brokerage or other business, you confirm that you have authority to accept these Terms on
            its behalf.
          </p>
        </>
      ),
    },
    {
      id: "eligibility",
      title: "Eligibility",
      body: (
        <>
          <p>Membership is open only to individuals who:</p>
          <ul>
            <li>are at least 18 years old;</li>
            <li>hold an active real-estate license issued by the State of Texas or the State of Oklahoma; and</li>
            <li>are in good standing with their licensing authority.</li>
          </ul>
          <p>
            We verify each applicant’s license against the public databases of the Texas Real Estate Commission and the Oklahoma Real Estate
            Commission, which usually takes 24-48 hours. We may refuse or revoke membership if we cannot verify your license, if it lapses
            or is suspended, or if any information you gave us is false. You must tell us promptly if your license status changes.
          </p>
        </>
      ),
    },
    {
      id: "membership",
      title: "Membership, Fees and Refunds",
      body: (
        <>
          <p>
            <strong>Founder access.</strong> The first {FOUNDER_CAP} approved agents receive FREE lifetime founder access: no fees and no
            credit card required.
          </p>
          <p>
            <strong>Later members.</strong> Membership for agents who join after the founder offer is a one-time lifetime fee: $10 for a
            founder membership and $25 for a regular membership. The fee is paid once and is not a subscription.
          </p>
          <p>
            <strong>Refunds.</strong> Refund requests are considered case by case within 30 days of payment. To ask for a refund, contact us
            at {mailLink}.
          </p>
          <p>
            Membership is personal to you and may not be shared, sold or transferred. We may change the features included in membership, and
            the fees for members who have not yet joined, at any time.
          </p>
        </>
      ),
    },
    {
      id: "accounts",
      title: "Your Account",
      body: (
        <>
          <p>
            You must give accurate, current and complete information when you register and keep your profile up to date. You are responsible
            for keeping your password confidential and for all activity under your account. Tell us immediately at {mailLink} if you believe
            your account has been used without your permission.
          </p>
          <p>Accounts stay pending until approved. Pending and rejected accounts cannot log in to the member area.</p>
        </>
      ),
    },
    {
      id: "referral-agreements",
      title: "Referral Agreements Between Agents",
      body: (
        <>
          <p>
            {PRODUCT_NAME} is a networking platform. It helps licensed agents find one another, post and answer referral requests and
            exchange messages. <strong>Any referral agreement, including its fee, is made directly between the agents involved.</strong>{" "}
            {PRODUCT_NAME} is not a party to any referral agreement, is not a real-estate broker, does not represent buyers or sellers and
            does not receive any part of a referral fee.
          </p>
          <p>
            You are solely responsible for complying with the laws and regulations that apply to referrals and referral fees in your state,
            including the rules of the Texas Real Estate Commission and the Oklahoma Real Estate Commission, your brokerage’s policies and
            any written agreement required between brokers.
          </p>
        </>
      ),
    },
    {
      id: "acceptable-use",
      title: "Acceptable Use",
      body: (
        <>
          <p>When using the Service you agree not to:</p>
          <ul>
            <li>give false or misleading information, or impersonate another person or agent;</li>
            <li>post or send content that is unlawful, defamatory, discriminatory, harassing or obscene;</li>
            <li>
              violate fair housing laws, or post requests that discriminate on the basis of race, color, religion, sex, disability, familial
              status, national origin or any other protected characteristic;
            </li>
            <li>send spam, chain letters or unsolicited commercial messages to other members;</li>
            <li>copy, scrape or export member information for any purpose other than arranging referrals through the Service;</li>
            <li>share your client’s personal information beyond what is needed to arrange a referral, or without the client’s consent;</li>
            <li>interfere with the Service, probe its security, or access accounts or data that are not yours; or</li>
            <li>use the Service for any purpose other than professional networking between licensed agents.</li>
          </ul>
        </>
      ),
    },
    {
      id: "content",
      title: "Your Content",
      body: (
        <p>
          You keep ownership of the profile information, photos, referral requests and messages you submit. You grant {PRODUCT_NAME} a
          non-exclusive, royalty-free license to store, display and transmit that content only as needed to operate the Service. You confirm
          that you have the right to share the content you submit and that it does not infringe anyone else’s rights.
        </p>
      ),
    },
    {
      id: "termination",
      title: "Account Termination",
      body: (
        <>
          <p>
            You may close your account at any time by contacting us at {mailLink}. We may suspend or terminate your account, with or without
            notice, if you breach these Terms, if your license can no longer be verified, or if we reasonably believe your use of the
            Service harms other members or {PRODUCT_NAME}.
          </p>
          <p>
            When your account ends, your right to use the Service ends too. Sections of these Terms that by their nature should survive,
            including referral agreements between agents, disclaimers, limitation of liability and governing law, continue to apply.
          </p>
        </>
      ),
    },
    {
      id: "disclaimers",
      title: "Disclaimers",
      body: (
        <>
          <p>
            The Service is provided “as is” and “as available”, without warranties of any kind, express or implied, including warranties of
            merchantability, fitness for a particular purpose and non-infringement.
          </p>
          <p>
            License verification confirms a license status at the time it was checked; it is not an endorsement of any agent. We do not
            guarantee the quality, conduct or results of any member, the accuracy of any profile or request, the number of referrals you
            will send or receive, or that the Service will be uninterrupted or error-free. You are responsible for your own due diligence
            before entering into any agreement.
          </p>
        </>
      ),
    },
    {
      id: "limitation-of-liability",
      title: "Limitation of Liability",
      body: (
        <>
          <p>
            To the fullest extent permitted by law, {PRODUCT_NAME} and its owners, employees and service providers will not be liable for
            any indirect, incidental, special, consequential or punitive damages, or for any loss of profits, commissions, referral fees,
            data or goodwill, arising from or related to your use of the Service or any dealings between members.
          </p>
          <p>
            Our total liability for any claim relating to the Service is limited to the amount you paid us for membership in the twelve
            months before the claim arose, or $25 if that amount is lower or you paid nothing.
          </p>
        </>
      ),
    },
    {
      id: "indemnification",
      title: "Indemnification",
      body: (
        <p>
          You agree to defend, indemnify and hold harmless {PRODUCT_NAME} and its owners and employees from any claims, losses and expenses,
          including reasonable attorneys’ fees, arising from your use of the Service, your content, your referral agreements or your breach
          of these Terms.
        </p>
      ),
    },
    {
      id: "governing-law",
      title: "Governing Law",
      body: (
        <p>
          These Terms are governed by the laws of the State of Texas, without regard to its conflict-of-law rules. Any dispute arising from
          these Terms or the Service will be brought exclusively in the state or federal courts located in Texas, and you consent to the
          jurisdiction of those courts.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to These Terms",
      body: (
        <p>
          We may revise these Terms from time to time. The current version is always on this page with its effective date. If a change is
          significant, we will notify members by e-mail or with a notice in the member area. Continuing to use the Service after a change
          takes effect means you accept the revised Terms.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact Us",
      body: (
        <p>
          Questions about these Terms? E-mail us at {mailLink} or visit our <Link to="/contact">Contact Support</Link> page. We respond
          within 24 hours on business days.
        </p>
      ),
    },
  ];
}
