import type { Migration } from 'kysely';
import * as eventStore from './0001-event-store.ts';
import * as accounts from './0002-accounts.ts';
import * as cards from './0003-cards.ts';
import * as cardCollections from './0003-cards-collections.ts';
import * as portfolio from './0004-portfolio.ts';
import * as portfolioVersions from './0004-portfolio-versions.ts';
import * as orders from './0005-orders.ts';
import * as feedback from './0006-feedback.ts';
import * as imports from './0007-imports.ts';
import * as cardCatalogIds from './0008-card-catalog-ids.ts';
import * as savedCards from './0010-saved-cards.ts';
import * as portfolioHoldings from './0011-portfolio-holdings.ts';
import * as cardResultJson from './0012-card-result-json.ts';
import * as cardResultFromEvent from './0013-card-result-from-event.ts';
import * as personKeys from './0014-person-keys.ts';
import * as leaderboardOptOut from './0015-leaderboard-opt-out.ts';
import * as professionalGrades from './0016-professional-grades.ts';
import * as orderTimeline from './0017-order-timeline.ts';
import * as regrade from './0020-regrade.ts';
import * as cardPictures from './0021-card-pictures.ts';
import * as emailClaimHmac from './0022-email-claim-hmac.ts';
import * as confirmedIdentification from './0023-confirmed-identification.ts';
import * as reflectedLight from './0024-reflected-light.ts';
import * as gradedPriceHistory from './0025-graded-price-history.ts';

// Applied in the order listed here (names sort the same way). One statement per sql`` call:
// PGlite's extended protocol refuses several statements in one query.
export const migrations: Record<string, Migration> = {
  '0001-event-store': eventStore,
  '0002-accounts': accounts,
  '0003-cards': cards,
  '0003-cards-collections': cardCollections,
  '0004-portfolio': portfolio,
  '0004-portfolio-versions': portfolioVersions,
  '0005-orders': orders,
  '0006-feedback': feedback,
  '0007-imports': imports,
  '0008-card-catalog-ids': cardCatalogIds,
  '0010-saved-cards': savedCards,
  '0011-portfolio-holdings': portfolioHoldings,
  '0012-card-result-json': cardResultJson,
  '0013-card-result-from-event': cardResultFromEvent,
  '0014-person-keys': personKeys,
  '0015-leaderboard-opt-out': leaderboardOptOut,
  '0016-professional-grades': professionalGrades,
  '0017-order-timeline': orderTimeline,
  '0020-regrade': regrade,
  '0021-card-pictures': cardPictures,
  '0022-email-claim-hmac': emailClaimHmac,
  '0023-confirmed-identification': confirmedIdentification,
  '0024-reflected-light': reflectedLight,
  '0025-graded-price-history': gradedPriceHistory,
};
