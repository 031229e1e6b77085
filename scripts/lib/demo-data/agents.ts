/** The demo's agents: who they are, where they work and what they do; everything else about them is drawn when they are built. */
import type { Specialty } from "~/domain/enums";
import type { AgentStatus } from "~/domain/workbook/tabs";
import type { City } from "./places";

export type AgentSeed = {
  name: string;
  city: City;
  specialties: readonly Specialty[];
  status?: AgentStatus;
  statusNote?: string;
  /** Joined through the demo login's invitation to the network (Agents' `invitedBy`). */
  invitedByLogin?: true;
};

/** Approved agents, oldest member first: the first ones are the founders. */
export const APPROVED: readonly AgentSeed[] = [
  { name: "Maria Delgado", city: "Dallas", specialties: ["Residential", "First-Time Buyers", "Luxury"] },
  { name: "James Whitfield", city: "Houston", specialties: ["Residential", "Luxury"] },
  { name: "Priya Raman", city: "Austin", specialties: ["Residential", "New Construction", "First-Time Buyers"] },
  { name: "Carlos Benavides", city: "San Antonio", specialties: ["Investment", "Residential Income", "Residential"] },
  { name: "Hannah Kowalski", city: "Fort Worth", specialties: ["Residential", "First-Time Buyers"] },
  { name: "Sarah Whitlock", city: "Oklahoma City", specialties: ["Residential", "First-Time Buyers", "Investment"] },
  { name: "Travis Colbert", city: "Tulsa", specialties: ["Investment", "Residential Income", "Commercial"] },
  { name: "Wade Harlan", city: "Amarillo", specialties: ["Farm and Ranch", "Land", "Auction"] },
  { name: "Luis Ortega", city: "El Paso", specialties: ["Residential", "First-Time Buyers", "New Construction"] },
  { name: "Brooke Tate", city: "Lubbock", specialties: ["Farm and Ranch", "Land", "Residential"] },
  { name: "Tamika Jefferson", city: "Tyler", specialties: ["Barndominium", "Land", "Residential"] },
  { name: "Ethan Brooks", city: "Waco", specialties: ["Residential", "Barndominium", "Investment"] },
  { name: "Grace Nguyen", city: "McKinney", specialties: ["New Construction", "Residential", "First-Time Buyers"] },
  { name: "Derek Lindqvist", city: "Frisco", specialties: ["New Construction", "Luxury"] },
  { name: "Omar Haddad", city: "Houston", specialties: ["Commercial", "Commercial Income", "Investment"] },
  { name: "Emily Chen", city: "Norman", specialties: ["Residential", "Residential Income", "First-Time Buyers"] },
  { name: "Garrett Pierce", city: "Edmond", specialties: ["Luxury", "New Construction", "Residential"] },
  { name: "Roy Dunham", city: "Enid", specialties: ["Auction", "Farm and Ranch", "Land"] },
  { name: "Rebecca Stein", city: "Austin", specialties: ["Luxury", "Residential"] },
  { name: "Marcus Bell", city: "Dallas", specialties: ["Commercial", "Commercial Income"] },
  { name: "Mia Robertson", city: "Broken Arrow", specialties: ["First-Time Buyers", "Residential", "New Construction"] },
  { name: "Jesse Ramirez", city: "Lawton", specialties: ["First-Time Buyers", "Residential"] },
  { name: "Katie Sullivan", city: "Stillwater", specialties: ["Recreational (RV and Glamping)", "Residential Income", "Land"] },
  { name: "Sofia Castillo", city: "Houston", specialties: ["First-Time Buyers", "Residential"] },
  { name: "Javier Morales", city: "San Antonio", specialties: ["Commercial", "Land", "Investment"] },
  { name: "Caleb Whitaker", city: "Fort Worth", specialties: ["Farm and Ranch", "Barndominium", "Land"] },
  { name: "Ana Villarreal", city: "Corpus Christi", specialties: ["Residential", "Recreational (RV and Glamping)", "Investment"] },
  { name: "Tyler Boone", city: "College Station", specialties: ["Residential Income", "Investment", "Residential"] },
  { name: "Kendra Osei", city: "Plano", specialties: ["Luxury", "Residential"] },
  { name: "Dustin Pruitt", city: "Midland", specialties: ["Commercial", "Land", "Residential"] },
  { name: "Leah Abernathy", city: "Denton", specialties: ["First-Time Buyers", "Residential", "Residential Income"] },
  { name: "Nathan Price", city: "Oklahoma City", specialties: ["Commercial", "Commercial Income", "Investment"] },
  { name: "Alicia Monroe", city: "Tulsa", specialties: ["Luxury", "Residential"] },
  { name: "Cody McAllister", city: "Wichita Falls", specialties: ["Farm and Ranch", "Auction", "Residential"] },
  { name: "Naomi Fischer", city: "Round Rock", specialties: ["New Construction", "First-Time Buyers"] },
  { name: "Lauren Gaines", city: "Ardmore", specialties: ["Recreational (RV and Glamping)", "Land", "Farm and Ranch"] },
  { name: "Brandon Lee", city: "Sugar Land", specialties: ["Residential", "Luxury", "Investment"] },
  { name: "Jolene Hart", city: "Sherman", specialties: ["Barndominium", "Residential", "Land"] },
  { name: "Cole Hendricks", city: "Durant", specialties: ["Recreational (RV and Glamping)", "Residential", "Auction"] },
  { name: "Renee Dubois", city: "Galveston", specialties: ["Recreational (RV and Glamping)", "Residential Income", "Luxury"] },
  // The newest members came through the demo login's invitations (demo-data/outreach.ts).
  { name: "Dana Whitcomb", city: "Denton", specialties: ["Residential", "First-Time Buyers"], invitedByLogin: true },
  { name: "Rosa Espinoza", city: "Alpine", specialties: ["Farm and Ranch", "Land", "Residential"], invitedByLogin: true },
];

/** Waiting for staff to check their license, and one staff turned down. */
export const NOT_APPROVED: readonly AgentSeed[] = [
  { name: "Vanessa Ruiz", city: "Houston", specialties: ["Residential", "First-Time Buyers"], status: "pending" },
  { name: "Peter Nakamura", city: "Austin", specialties: ["Investment", "Commercial"], status: "pending" },
  { name: "Shawna Mitchell", city: "Tulsa", specialties: ["Residential"], status: "pending" },
  { name: "Hector Salinas", city: "McAllen", specialties: ["Farm and Ranch", "Land"], status: "pending" },
  { name: "Bethany Cross", city: "Moore", specialties: ["First-Time Buyers", "New Construction"], status: "pending" },
  {
    name: "Kyle Jordan",
    city: "Frisco",
    specialties: ["Residential"],
    status: "rejected",
    statusNote: "The license number was not found in the TREC public database. Reply to support with your current license number.",
  },
  { name: "Monica Ferrell", city: "Tyler", specialties: ["Residential", "Barndominium"], status: "pending", invitedByLogin: true },
];

export const FOUNDERS = 25;
export const VIPS = 3;
export const DEMO_VIP_CODE = "DEMO-VIP";
export const LOGIN_AGENT = "Maria Delgado";
