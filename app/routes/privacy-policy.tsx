import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LegalDocument, legalEffectiveDate, type LegalSection } from "~/components/legal-document";
import { PRODUCT_NAME } from "~/domain/product";
import { NO_SCRIPTS_FOR_VISITORS } from "~/domain/page-scripts";

/** Text and links to its sections: a visitor gets the page without scripts (decision 0085). */
export const handle = NO_SCRIPTS_FOR_VISITORS;

export const meta: MetaFunction = () => [
  { title: `Privacy Policy | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `How ${PRODUCT_NAME} collects, uses, shares and protects the personal information of its members and visitors.`,
  },
];

/** The effective date is the day of the request, as the policy has always stated. */
export function loader({ context }: LoaderFunctionArgs) {
  return { effectiveDate: legalEffectiveDate(new Date()), privacyEmail: context.services.config.privacyEmail };
}

export default function PrivacyPolicy() {
  const { effectiveDate, privacyEmail } = useLoaderData<typeof loader>();
  return (
    <LegalDocument
      title="Privacy Policy"
      effectiveDate={effectiveDate}
      intro={`How ${PRODUCT_NAME} collects, uses and protects your information when you visit our site or join our referral network.`}
      sections={privacySections(privacyEmail)}
    />
  );
}

function privacySections(privacyEmail: string): LegalSection[] {
  const mailLink = <a href={`mailto:${privacyEmail}`}>{privacyEmail}</a>;
  return [
    {
      id: "introduction",
      title: "Introduction",
      body: (
        <>
          <p>
            {PRODUCT_NAME} (“{PRODUCT_NAME}”, “we”, “us” or “our”) operates a members-only referral network for licensed real-estate agents
            in Texas and Oklahoma. This Privacy Policy explains what personal information we collect when you visit our website, register as
            a member or contact us, how we use and share it, and the choices you have.
          </p>
          <p>
            By using our website or services you agree to the practices described here. If you do not agree, please do not use the service.
            This policy should be read together with our <Link to="/terms-of-service">Terms of Service</Link>.
          </p>
        </>
      ),
    },
    {
      id: "information-we-collect",
      title: "Information We Collect",
      body: (
        <>
          <h3>Information you give us</h3>
          <ul>
            <li>
              <strong>Registration details:</strong> your full name, e-mail address, phone number, state and city.
            </li>
            <li>
              <strong>Professional profile:</strong> your real-estate license number and license state, brokerage, years of experience,
              specialties, price ranges, service areas, a short biography and, if you choose, a profile photo.
            </li>
            <li>
              <strong>Account credentials:</strong> the password you choose. We store only a one-way cryptographic hash of it, never the
              password itself, and we never send it by e-mail.
            </li>
            <li>
              <strong>Network activity:</strong> referral requests you post, your responses to other members’ requests, and the messages you
              exchange with other members.
            </li>
            <li>
              <strong>Support requests:</strong> the name, e-mail address, subject, message and, optionally, license number and state you
              send through our contact form.
            </li>
          </ul>
          <h3>Information collected automatically</h3>
          <ul>
            <li>
              <strong>Technical data:</strong> your IP address, browser type, device type, the pages you request and the date and time of
              each request, recorded in our server logs.
            </li>
            <li>
              <strong>Session cookie:</strong> when you log in, a cookie keeps you signed in. See “Cookies” below.
            </li>
          </ul>
          <h3>Information from public sources</h3>
          <p>
            To verify your membership we check your license against the public license databases of the Texas Real Estate Commission and the
            Oklahoma Real Estate Commission.
          </p>
        </>
      ),
    },
    {
      id: "how-we-use-information",
      title: "How We Use Your Information",
      body: (
        <>
          <p>We use the information we collect to:</p>
          <ul>
            <li>create and manage your account, and verify your real-estate license before approving it;</li>
            <li>show your professional profile to other verified members in the agent directory;</li>
            <li>deliver referral requests, responses and messages between members;</li>
            <li>send you service e-mails, such as approval notices, password reset links and message notifications;</li>
            <li>answer your support requests and questions;</li>
            <li>keep the network secure, prevent fraud and abuse, and enforce our Terms of Service;</li>
            <li>understand how the service is used so we can fix problems and improve it; and</li>
            <li>comply with applicable laws and respond to lawful requests from public authorities.</li>
          </ul>
          <p>We do not sell your personal information, and we do not use it for third-party advertising.</p>
        </>
      ),
    },
    {
      id: "sharing",
      title: "How We Share Information",
      body: (
        <>
          <p>We share personal information only in the following cases:</p>
          <ul>
            <li>
              <strong>With other members:</strong> your profile (name, photo, brokerage, license state, markets, specialties and biography)
              is visible to other verified members. Your referral requests are visible to members, and your messages are visible to the
              members you exchange them with.
            </li>
            <li>
              <strong>With service providers</strong> who process information on our behalf under confidentiality obligations: hosting, data
              storage (including spreadsheet storage with Google), e-mail delivery and image hosting.
            </li>
            <li>
              <strong>For legal reasons:</strong> when we believe in good faith that disclosure is required by law, subpoena or court order,
              or is needed to protect the rights, property or safety of {PRODUCT_NAME}, our members or the public.
            </li>
            <li>
              <strong>In a business transfer:</strong> if {PRODUCT_NAME} is involved in a merger, acquisition or sale of assets, your
              information may be transferred as part of that transaction, subject to this policy.
            </li>
            <li>
              <strong>With your consent:</strong> in any other case, only when you have asked us to or agreed to it.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "security",
      title: "Data Security",
      body: (
        <>
          <p>
            We protect your information with administrative, technical and physical safeguards appropriate to its sensitivity. All traffic
            to our site is encrypted with SSL/TLS, passwords are stored only as salted one-way hashes, sessions are held in signed cookies
            that scripts cannot read, and access to member data is limited to people who need it to run the service. We review our security
            practices regularly.
          </p>
          <p>
            No method of transmission or storage is completely secure, so we cannot guarantee absolute security. Please choose a strong
            password, keep it to yourself and tell us straight away if you suspect that your account has been misused.
          </p>
        </>
      ),
    },
    {
      id: "your-rights",
      title: "Your Rights and Choices",
      body: (
        <>
          <p>Depending on where you live, you may have the right to:</p>
          <ul>
            <li>
              <strong>Access</strong> the personal information we hold about you and receive a copy of it;
            </li>
            <li>
              <strong>Correct</strong> information that is inaccurate or incomplete (most profile details can be edited at any time from
              your profile page);
            </li>
            <li>
              <strong>Delete</strong> your account and personal information, subject to the exceptions described under “Data Retention”;
            </li>
            <li>
              <strong>Object to or restrict</strong> certain processing, and withdraw any consent you have given;
            </li>
            <li>
              <strong>Opt out</strong> of non-essential e-mails by contacting us. Service e-mails, such as approval notices and password
              reset links, are part of the service.
            </li>
          </ul>
          <p>
            To exercise any of these rights, e-mail us at {mailLink}. We may need to confirm your identity before acting on a request. We
            answer privacy queries within 30 days. We will not treat you differently for exercising your rights.
          </p>
        </>
      ),
    },
    {
      id: "cookies",
      title: "Cookies",
      body: (
        <>
          <p>
            We use essential cookies only. A session cookie keeps you logged in for up to 7 days after you sign in. It is signed so it
            cannot be altered, it is not readable by scripts on the page, and it is removed when you log out.
          </p>
          <p>
            After you post, save or send something, a short-lived cookie, signed the same way, carries the one-line confirmation (such as
            “Referral request posted successfully!”) to the next page; it is emptied once shown and expires within a minute.
          </p>
          <p>
            We do not use advertising cookies, and we do not load third-party tracking or analytics scripts. You can block or delete cookies
            in your browser settings; if you block the session cookie, you will not be able to log in to the member area.
          </p>
        </>
      ),
    },
    {
      id: "data-retention",
      title: "Data Retention",
      body: (
        <>
          <p>
            We keep your account and profile information for as long as your membership is active. Referral requests remain visible for 30
            days, after which they expire and are no longer shown to members. Support messages are kept for as long as needed to answer them
            and to keep a record of our correspondence.
          </p>
          <p>
            When you ask us to delete your account, we delete or anonymize your personal information unless we must keep some of it to
            comply with legal obligations, resolve disputes, prevent fraud or enforce our agreements. Server logs are kept for a limited
            period for security purposes and then deleted.
          </p>
        </>
      ),
    },
    {
      id: "children",
      title: "Children’s Privacy",
      body: (
        <p>
          {PRODUCT_NAME} is a professional network for licensed real-estate agents, and members must be at least 18 years old. We do not
          knowingly collect personal information from children under 13. If you believe a child under 13 has given us personal information,
          please contact us at {mailLink} and we will delete it.
        </p>
      ),
    },
    {
      id: "international-users",
      title: "International Users",
      body: (
        <p>
          Our service is intended for agents licensed in Texas and Oklahoma and is operated from the United States. If you use it from
          outside the United States, your information will be transferred to, stored and processed in the United States, where data
          protection laws may differ from those of your country. By using the service you consent to this transfer.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to This Policy",
      body: (
        <p>
          We may update this Privacy Policy from time to time. When we do, we will post the new version on this page with its effective date
          and, if the changes are significant, notify members by e-mail or with a notice in the member area. Your continued use of the
          service after a change takes effect means you accept the updated policy.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact Us",
      body: (
        <>
          <p>
            If you have questions about this Privacy Policy or how we handle your information, or wish to exercise your rights, e-mail us at{" "}
            {mailLink}. We answer privacy queries within 30 days.
          </p>
          <p>
            For other questions, visit our <Link to="/contact">Contact Support</Link> page.
          </p>
        </>
      ),
    },
  ];
}
