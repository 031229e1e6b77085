export default function Home() {
  return <h1>Agent Referral Network</h1>;
}
