/** A team of the venue, as its public page offers it: the tip goes to the team card and is split by the team's rule. */
export interface VenueTeamChoice {
  team_id: string;
  title: string;
  card_id: string;
  member_count: number;
}

/** A person of the venue: a current member of one of its teams, offered through their own card. */
export interface VenuePersonChoice {
  card_id: string;
  public_name: string;
  image_url: string | null;
  team_title: string;
}

/**
 * What the venue's public page (`/venue/{workplaceId}`, the venue QR) shows anyone: whom a guest may tip there. Public
 * names and photos only, as the cards' own pages show them. Rendered on the server and inlined into the page (no
 * JSON route).
 */
export interface PublicVenue {
  id: string;
  name: string;
  /** The venue card (decision 0058), once its admin has made it: a tip to everyone, split between the teams. */
  venue_card_id: string | null;
  people: VenuePersonChoice[];
  teams: VenueTeamChoice[];
}

/** The venue page's path, which the venue's QR code encodes. */
export const venuePagePath = (workplaceId: string) => `/venue/${workplaceId}`;
